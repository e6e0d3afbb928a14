package dev.pulseledger.tokens;

import dev.pulseledger.store.Database;
import java.sql.PreparedStatement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Forgets idempotency records once their retention has passed. It deletes in small batches, each
 * its own short transaction, and only so many per run, so it never holds locks long enough to delay
 * a spend, however many records have piled up.
 */
public final class IdempotencyCleaner implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(IdempotencyCleaner.class);
    private static final String DELETE_EXPIRED = "DELETE FROM idempotency_keys WHERE (account_id, key) IN"
            + " (SELECT account_id, key FROM idempotency_keys WHERE created_at < ? ORDER BY created_at LIMIT ?)";

    /** How much one run may delete, and how often runs come. */
    public record Limits(int batchSize, int maxBatchesPerRun, Duration period) {
        public static final Limits DEFAULT = new Limits(500, 20, Duration.ofMinutes(1));
    }

    private final Database database;
    private final Clock clock;
    private final Duration retention;
    private final Limits limits;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("idempotency-cleaner").daemon(true).factory());

    public IdempotencyCleaner(Database database, Clock clock, Duration retention, Limits limits) {
        this.database = database;
        this.clock = clock;
        this.retention = retention;
        this.limits = limits;
    }

    /** Runs {@link #runOnce()} every period from now on, until closed. */
    public IdempotencyCleaner start() {
        long periodMillis = limits.period().toMillis();
        // runQuietly logs its own failures, so the future has nothing to report.
        ScheduledFuture<?> unused =
                scheduler.scheduleWithFixedDelay(this::runQuietly, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return this;
    }

    /** Deletes up to one run's worth of expired records; returns how many it deleted. */
    public int runOnce() {
        Instant cutoff = clock.instant().minus(retention);
        int deleted = 0;
        for (int batch = 0; batch < limits.maxBatchesPerRun(); batch++) {
            int inBatch = deleteBatch(cutoff);
            deleted += inBatch;
            if (inBatch < limits.batchSize()) {
                break;
            }
        }
        return deleted;
    }

    private int deleteBatch(Instant cutoff) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE_EXPIRED)) {
                ps.setLong(1, cutoff.toEpochMilli());
                ps.setInt(2, limits.batchSize());
                return ps.executeUpdate();
            }
        });
    }

    /** A failed run (the database is away, say) is simply tried again next period. */
    private void runQuietly() {
        try {
            int deleted = runOnce();
            if (deleted > 0) {
                LOG.debug("Deleted {} expired idempotency records", deleted);
            }
        } catch (RuntimeException e) {
            LOG.warn("Idempotency cleanup failed, will retry: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
