package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A held refusal waits out its hold, but never more of them at once than the node allows. */
class RefusalHoldTest {
    @Test
    void beyondTheHeldLimitARefusalIsSentAtOnce() {
        RefusalHold hold = new RefusalHold(Duration.ofMinutes(5), 2);
        List<Thread> holders = new ArrayList<>();
        List<CompletableFuture<Boolean>> held = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            CompletableFuture<Boolean> result = new CompletableFuture<>();
            held.add(result);
            holders.add(Thread.ofVirtual().start(() -> result.complete(hold.hold())));
        }
        Waiting.until("two refusals are held", () -> hold.held() == 2);

        assertThat(hold.hold()).as("a third, while two are held").isFalse();

        holders.forEach(Thread::interrupt);
        assertThat(held).allSatisfy(result -> assertThat(result.join()).isTrue());
        assertThat(hold.held()).isZero();
    }

    @Test
    void noHoldSendsAtOnce() {
        RefusalHold none = new RefusalHold(Duration.ZERO, 10);

        assertThat(none.hold()).isFalse();
        assertThat(none.held()).isZero();
    }
}
