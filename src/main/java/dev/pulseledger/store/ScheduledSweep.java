package dev.pulseledger.store;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A bounded sweep over database rows, run in the background: each run takes batches until one comes
 * back short or the run's cap is reached, so it never holds locks for long however much has piled up.
 * Runs come at a fixed delay on the sweep's own daemon thread; a failed run (the database is away,
 * say) is logged and simply tried again next time.
 */
public final class ScheduledSweep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ScheduledSweep.class);
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);

    /** How often a run starts, how many rows one batch takes, and how many batches one run may take. */
    public record Limits(Duration interval, int batchSize, int maxBatchesPerRun) {
        public Limits {
            if (!interval.isPositive() || batchSize < 1 || maxBatchesPerRun < 1) {
                throw new IllegalArgumentException("A sweep's interval, batch size and batches per run must be"
                        + " positive: " + interval + ", " + batchSize + ", " + maxBatchesPerRun);
            }
        }
    }

    /** One batch of a sweep: handles at most {@code batchSize} rows, each batch its own transaction. */
    @FunctionalInterface
    public interface Batch {
        /** Returns how many rows it handled; fewer than {@code batchSize} ends the run. */
        int take(int batchSize);
    }

    private final String name;
    private final Limits limits;
    private final Batch batch;
    private final ScheduledExecutorService scheduler;

    /** @param name names the thread and the log lines */
    public ScheduledSweep(String name, Limits limits, Batch batch) {
        this.name = name;
        this.limits = limits;
        this.batch = batch;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name(name).daemon(true).factory());
    }

    /** Runs {@link #runOnce()} after {@code firstRunAfter}, then every interval, until closed. */
    public ScheduledSweep start(Duration firstRunAfter) {
        // runQuietly logs its own failures, so the future has nothing to report.
        ScheduledFuture<?> unused = scheduler.scheduleWithFixedDelay(
                this::runQuietly, firstRunAfter.toMillis(), limits.interval().toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** One run: batches until a short one or the run's cap; returns how many rows it handled. */
    public int runOnce() {
        int handled = 0;
        for (int taken = 0; taken < limits.maxBatchesPerRun(); taken++) {
            int inBatch = batch.take(limits.batchSize());
            handled += inBatch;
            if (inBatch < limits.batchSize()) {
                break;
            }
        }
        return handled;
    }

    private void runQuietly() {
        try {
            int handled = runOnce();
            if (handled > 0) {
                LOG.debug("The {} sweep handled {} rows", name, handled);
            }
        } catch (RuntimeException e) {
            LOG.warn("The {} sweep failed; it runs again in {}: {}", name, limits.interval(), e.toString());
        }
    }

    /** Stops the sweep, interrupting a run in progress, and waits for its thread a bounded time. */
    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            if (!scheduler.awaitTermination(CLOSE_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("The {} sweep did not stop within {}", name, CLOSE_WAIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
