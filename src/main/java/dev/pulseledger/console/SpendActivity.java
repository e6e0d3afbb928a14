package dev.pulseledger.console;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.PgArrays;
import dev.pulseledger.store.Sql;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts spends and refused spends (402) per account per hour for the dashboard. The spend path only
 * bumps a counter in memory; every {@link #FLUSH_INTERVAL} the counts are added to
 * {@code spend_activity}, where every node's counts meet. The ledger stays the exact record: a node
 * that dies loses at most its last interval of dashboard counts, never a token.
 */
public final class SpendActivity implements AutoCloseable {
    /**
     * Each flush writes a row per account that spent since the last one, so with many callers a longer
     * interval means fewer writes per spend (every second, it was ~0.9 upserts per spend at 1,000 callers).
     */
    static final Duration FLUSH_INTERVAL = Duration.ofSeconds(5);
    /** Accounts counted between two flushes; past it a node drops counts rather than grow. */
    static final int MAX_PENDING = 100_000;

    private static final Logger LOG = LoggerFactory.getLogger(SpendActivity.class);
    private static final long HOUR_MILLIS = Duration.ofHours(1).toMillis();
    private static final String ADD_COUNTS = " ON CONFLICT (hour_start, account_id) DO UPDATE SET"
            + " spends = spend_activity.spends + excluded.spends,"
            + " tokens = spend_activity.tokens + excluded.tokens,"
            + " refusals = spend_activity.refusals + excluded.refusals";
    private static final String UPSERT = "INSERT INTO spend_activity (hour_start, account_id, spends, tokens, refusals)"
            + " VALUES (:hour_start, :account_id, :spends, :tokens, :refusals)" + ADD_COUNTS;
    /** PostgreSQL: every bucket in one statement (a statement per bucket cost as much as a spend each). */
    private static final String UPSERT_ALL = "INSERT INTO spend_activity (hour_start, account_id, spends, tokens,"
            + " refusals) SELECT * FROM unnest(CAST(:hours AS bigint[]), CAST(:accounts AS text[]),"
            + " CAST(:spends AS bigint[]), CAST(:tokens AS bigint[]), CAST(:refusals AS bigint[]))"
            + ADD_COUNTS;

    /** The counts taken out of the pending map for one flush, as columns. */
    private record Flushed(
            List<Long> hours, List<String> accounts, List<Long> spends, List<Long> tokens, List<Long> refusals) {
        Flushed() {
            this(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        }

        void add(Bucket bucket, Counts counts) {
            hours.add(bucket.hourStart());
            accounts.add(bucket.accountId());
            spends.add(counts.spends);
            tokens.add(counts.tokens);
            refusals.add(counts.refusals);
        }
    }

    /** One account's hour. */
    private record Bucket(long hourStart, String accountId) {}

    /** What one account did in one hour since the last flush; changed only inside the map's compute. */
    private static final class Counts {
        long spends;
        long tokens;
        long refusals;
    }

    private final Database database;
    private final Clock clock;
    private final Map<Bucket, Counts> pending = new ConcurrentHashMap<>();
    private final ScheduledExecutorService flusher;

    public SpendActivity(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
        this.flusher = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("spend-activity").daemon().factory());
    }

    public SpendActivity start() {
        long millis = FLUSH_INTERVAL.toMillis();
        // flushQuietly logs its own failures, so the future has nothing to report.
        ScheduledFuture<?> unused =
                flusher.scheduleWithFixedDelay(this::flushQuietly, millis, millis, TimeUnit.MILLISECONDS);
        return this;
    }

    void spent(String accountId, long amount) {
        count(accountId, amount, 0);
    }

    void refused(String accountId) {
        count(accountId, 0, 1);
    }

    private void count(String accountId, long tokens, long refusals) {
        Bucket bucket = new Bucket(Math.floorDiv(clock.millis(), HOUR_MILLIS) * HOUR_MILLIS, accountId);
        if (pending.size() >= MAX_PENDING && !pending.containsKey(bucket)) {
            return;
        }
        pending.compute(bucket, (key, counts) -> {
            Counts updated = counts == null ? new Counts() : counts;
            updated.spends += tokens > 0 ? 1 : 0;
            updated.tokens += tokens;
            updated.refusals += refusals;
            return updated;
        });
    }

    /** Adds what was counted since the last flush to the table, in one transaction. */
    void flush() {
        List<Bucket> buckets = new ArrayList<>(pending.keySet());
        if (buckets.isEmpty()) {
            return;
        }
        database.inTransaction(connection -> {
            Flushed flushed = new Flushed();
            for (Bucket bucket : buckets) {
                // remove() and the spend path's compute() exclude each other, so no count is lost between them.
                Counts counts = pending.remove(bucket);
                if (counts != null) {
                    flushed.add(bucket, counts);
                }
            }
            try (Handle sql = Sql.on(connection)) {
                if (database.dialect() == Dialect.POSTGRESQL) {
                    return sql.createUpdate(UPSERT_ALL)
                            .bindBySqlType("hours", PgArrays.longs(connection, flushed.hours().stream()), Types.ARRAY)
                            .bindBySqlType(
                                    "accounts", PgArrays.texts(connection, flushed.accounts().stream()), Types.ARRAY)
                            .bindBySqlType("spends", PgArrays.longs(connection, flushed.spends().stream()), Types.ARRAY)
                            .bindBySqlType("tokens", PgArrays.longs(connection, flushed.tokens().stream()), Types.ARRAY)
                            .bindBySqlType(
                                    "refusals", PgArrays.longs(connection, flushed.refusals().stream()), Types.ARRAY)
                            .execute();
                }
                if (flushed.hours().isEmpty()) {
                    return 0;
                }
                PreparedBatch upsert = sql.prepareBatch(UPSERT);
                for (int i = 0; i < flushed.hours().size(); i++) {
                    upsert.bind("hour_start", flushed.hours().get(i))
                            .bind("account_id", flushed.accounts().get(i))
                            .bind("spends", flushed.spends().get(i))
                            .bind("tokens", flushed.tokens().get(i))
                            .bind("refusals", flushed.refusals().get(i))
                            .add();
                }
                return upsert.execute().length;
            }
        });
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            LOG.warn("Could not add the latest spend counts to the dashboard: {}", e.getMessage());
        }
    }

    @Override
    public void close() {
        flusher.shutdown();
        try {
            if (flusher.awaitTermination(5, TimeUnit.SECONDS)) {
                flushQuietly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
