package dev.pulseledger.db;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Sql;
import dev.pulseledger.store.StoreException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One streaming replica: its pool, and how far it is known to be caught up. Its probe reads the primary's
 * WAL position at a moment T, then the replica's replay position; once the replica has replayed that far,
 * it holds every commit acknowledged before T, and T becomes {@link #caughtUpToNanos()}. So its lag is
 * {@code now - caughtUpTo}: an upper bound that stays small on an idle primary (where the replay timestamp
 * would look old) and grows while replay is paused, stopped or cut off.
 */
final class Replica implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Replica.class);
    private static final String PRIMARY_POSITION = "SELECT pg_current_wal_lsn()::text";
    /** NULL on a server that is not (or was never) a standby: then it is not a replica to read from. */
    private static final String REPLAYED_POSITION = "SELECT pg_last_wal_replay_lsn()::text";

    private final String name;
    private final Database pool;
    private final long neverNanos;
    private final AtomicLong caughtUpToNanos;
    private volatile boolean up;
    private final LongAdder served = new LongAdder();
    private final LongAdder failures = new LongAdder();

    Replica(String name, Database pool, long startNanos) {
        this.name = name;
        this.pool = pool;
        // Never known caught up yet: as if it were far behind.
        this.neverNanos = startNanos - Long.MAX_VALUE / 4;
        this.caughtUpToNanos = new AtomicLong(neverNanos);
    }

    String name() {
        return name;
    }

    Database pool() {
        return pool;
    }

    /** The latest moment (System.nanoTime) before which every commit on the primary is known to be on this replica. */
    long caughtUpToNanos() {
        return caughtUpToNanos.get();
    }

    boolean isUp() {
        return up;
    }

    /** How far behind this replica may be, in seconds, as of {@code nowNanos}. */
    double lagSeconds(long nowNanos) {
        long caughtUpTo = caughtUpToNanos.get();
        return caughtUpTo == neverNanos ? Double.POSITIVE_INFINITY : (nowNanos - caughtUpTo) / 1e9;
    }

    /** One probe: the primary's position at {@code startNanos}, then whether this replica has replayed past it. */
    void probe(Database primary, long startNanos) {
        long primaryPosition;
        try {
            primaryPosition = primary.read(connection -> position(connection, PRIMARY_POSITION))
                    .orElseThrow();
        } catch (DatabaseUnavailableException | StoreException e) {
            return; // no primary position: nothing learnt, and the lag grows by itself
        }
        try {
            Optional<Long> replayed = pool.read(connection -> position(connection, REPLAYED_POSITION));
            if (replayed.isEmpty()) {
                markDown("it is not a streaming standby (pg_last_wal_replay_lsn() is NULL)");
                return;
            }
            if (!up) {
                LOG.info("Read replica {} answers again", name);
                up = true;
            }
            if (Long.compareUnsigned(replayed.get(), primaryPosition) >= 0) {
                caughtUpToNanos.accumulateAndGet(startNanos, Math::max);
            }
        } catch (DatabaseUnavailableException | StoreException e) {
            markDown(String.valueOf(e.getMessage()));
        }
    }

    /** A read on this replica failed: no more reads here until a probe finds it answering again. */
    void failed(RuntimeException e) {
        failures.increment();
        markDown(String.valueOf(e.getMessage()));
    }

    void served() {
        served.increment();
    }

    long servedCount() {
        return served.sum();
    }

    long failureCount() {
        return failures.sum();
    }

    private void markDown(String reason) {
        if (up) {
            LOG.warn("Read replica {} is not used until it answers again: {}", name, reason);
        }
        up = false;
    }

    private static Optional<Long> position(java.sql.Connection connection, String query) {
        try (Handle sql = Sql.on(connection)) {
            return sql.createQuery(query)
                    .map((rs, ctx) -> Optional.ofNullable(rs.getString(1)).map(Replica::lsn))
                    .one();
        }
    }

    /** A WAL position written as PostgreSQL does, {@code 16/B374D848}, as one number. */
    static long lsn(String text) {
        int slash = text.indexOf('/');
        return (Long.parseLong(text.substring(0, slash), 16) << 32) | Long.parseLong(text.substring(slash + 1), 16);
    }

    @Override
    public void close() {
        pool.close();
    }
}
