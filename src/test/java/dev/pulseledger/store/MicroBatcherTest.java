package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Batching and the one shutdown behaviour: queued work finishes, nothing waits for a stopped thread. */
class MicroBatcherTest {
    private static final MicroBatcher.Limits LIMITS = new MicroBatcher.Limits(100, 10, Duration.ofSeconds(30));

    @Test
    @Timeout(5)
    void afterCloseASubmitIsRefusedAtOnce() {
        MicroBatcher<Integer, Integer> batcher = new MicroBatcher<>(
                "test-batcher",
                LIMITS,
                batch -> batch.forEach(job -> job.complete(job.item())),
                IllegalStateException::new);
        assertThat(batcher.submit(7)).isEqualTo(7);

        batcher.close();

        assertThatThrownBy(() -> batcher.submit(8)).isInstanceOf(OverloadedException.class);
    }

    @Test
    @Timeout(5)
    void aJobTheWorkLeavesOpenFailsInsteadOfHanging() {
        try (MicroBatcher<Integer, Integer> batcher =
                new MicroBatcher<>("test-batcher", LIMITS, batch -> {}, IllegalStateException::new)) {
            assertThatThrownBy(() -> batcher.submit(1)).hasMessageContaining("unanswered");
        }
    }
}
