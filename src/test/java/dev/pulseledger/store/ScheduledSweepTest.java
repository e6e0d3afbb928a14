package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ScheduledSweepTest {
    private static final Duration OFTEN = Duration.ofMillis(10);

    @Test
    void aRunTakesBatchesUntilOneComesBackShort() {
        List<Integer> left = new ArrayList<>(List.of(10, 10, 4, 10));
        try (ScheduledSweep sweep = new ScheduledSweep(
                "test-sweep", new ScheduledSweep.Limits(OFTEN, 10, 100), batchSize -> left.removeFirst())) {
            assertThat(sweep.runOnce()).isEqualTo(24);
            assertThat(left).containsExactly(10);
        }
    }

    @Test
    void aRunTakesNoMoreBatchesThanItsCap() {
        AtomicInteger batches = new AtomicInteger();
        try (ScheduledSweep sweep =
                new ScheduledSweep("test-sweep", new ScheduledSweep.Limits(OFTEN, 10, 3), batchSize -> {
                    batches.incrementAndGet();
                    return batchSize;
                })) {
            assertThat(sweep.runOnce()).isEqualTo(30);
            assertThat(batches).hasValue(3);
        }
    }

    @Test
    void aFailedRunIsTriedAgainAndCloseEndsTheThread() {
        AtomicInteger runs = new AtomicInteger();
        ScheduledSweep sweep = new ScheduledSweep("failing-sweep", new ScheduledSweep.Limits(OFTEN, 10, 1), size -> {
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("the database is away");
            }
            return 0;
        });
        sweep.start(Duration.ZERO);
        Waiting.until("a run after the failed one", () -> runs.get() >= 2);
        assertThat(threadNamed("failing-sweep")).isTrue();

        sweep.close();

        assertThat(threadNamed("failing-sweep")).isFalse();
    }

    @Test
    void limitsMustBePositive() {
        assertThatThrownBy(() -> new ScheduledSweep.Limits(Duration.ZERO, 1, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScheduledSweep.Limits(OFTEN, 0, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScheduledSweep.Limits(OFTEN, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }
}
