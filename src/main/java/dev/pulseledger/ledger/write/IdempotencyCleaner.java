package dev.pulseledger.ledger.write;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.ScheduledSweep;
import dev.pulseledger.store.Sql;
import java.time.Clock;
import java.time.Duration;
import org.jdbi.v3.core.Handle;

/**
 * Forgets idempotency records once their retention has passed. It deletes in small batches, each
 * its own short transaction, and only so many per run, so it never holds locks long enough to delay
 * a spend, however many records have piled up.
 */
public final class IdempotencyCleaner implements AutoCloseable {
    /** A run every minute, of up to 20 batches of 500 records. */
    public static final ScheduledSweep.Limits DEFAULT_LIMITS =
            new ScheduledSweep.Limits(Duration.ofMinutes(1), 500, 20);

    private static final String DELETE_EXPIRED = "DELETE FROM idempotency_keys WHERE (account_id, key) IN"
            + " (SELECT account_id, key FROM idempotency_keys WHERE created_at < :cutoff"
            + " ORDER BY created_at LIMIT :limit)";

    private final Database database;
    private final Clock clock;
    private final Duration retention;
    private final Duration interval;
    private final ScheduledSweep sweep;

    public IdempotencyCleaner(Database database, Clock clock, Duration retention, ScheduledSweep.Limits limits) {
        this.database = database;
        this.clock = clock;
        this.retention = retention;
        this.interval = limits.interval();
        this.sweep = new ScheduledSweep("idempotency-cleaner", limits, this::deleteExpired);
    }

    /** Runs {@link #runOnce()} every interval from one interval on, until closed. */
    public IdempotencyCleaner start() {
        sweep.start(interval);
        return this;
    }

    /** Deletes up to one run's worth of expired records; returns how many it deleted. */
    public int runOnce() {
        return sweep.runOnce();
    }

    private int deleteExpired(int batchSize) {
        long cutoffMillis = clock.instant().minus(retention).toEpochMilli();
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE_EXPIRED)
                        .bind("cutoff", cutoffMillis)
                        .bind("limit", batchSize)
                        .execute();
            }
        });
    }

    @Override
    public void close() {
        sweep.close();
    }
}
