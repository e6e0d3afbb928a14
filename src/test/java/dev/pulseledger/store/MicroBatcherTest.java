package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
    void aJobTheWorkHandsOnIsAnsweredWhenTheOtherWorkIsDone() {
        ExecutorService later = Executors.newSingleThreadExecutor();
        try (MicroBatcher<Integer, Integer> batcher = new MicroBatcher<>(
                "test-batcher",
                LIMITS,
                batch -> batch.forEach(job -> later.execute(() -> job.complete(job.item() * 2))),
                IllegalStateException::new)) {
            assertThat(batcher.submit(21)).isEqualTo(42);
        } finally {
            later.shutdown();
        }
    }

    @Test
    @Timeout(5)
    void aJobTheWorkLeavesOpenTimesOutInsteadOfHanging() {
        MicroBatcher.Limits shortWait = new MicroBatcher.Limits(100, 10, Duration.ofMillis(200));
        try (MicroBatcher<Integer, Integer> batcher = new MicroBatcher<>(
                "test-batcher", shortWait, batch -> {}, () -> new IllegalStateException("timed out"))) {
            assertThatThrownBy(() -> batcher.submit(1)).hasMessageContaining("timed out");
        }
    }
}
