package dev.pulseledger.store;

import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether this node's writes work: set failing by a node-wide write fault (a full disk, a read-only server,
 * an outage), cleared by the next write that commits, and probed by a small write at most once a second
 * while failing, so a node that no traffic reaches still finds out by itself that it can write again.
 */
final class WriteHealth {
    private static final NamedSql PROBE_WRITE =
            NamedSql.parse("UPDATE write_probe SET probed_at = :probed_at WHERE id = 1");
    private static final Duration PROBE_INTERVAL = Duration.ofSeconds(1);

    private final FaultLog faultLog = new FaultLog();
    /** When writes started failing for the whole node; 0 while they work. */
    private final AtomicLong failingSinceNanos = new AtomicLong();

    private final AtomicLong lastProbeNanos = new AtomicLong(System.nanoTime() - PROBE_INTERVAL.toNanos());

    /** True unless writes fail for the whole node; while they do, probes with a write through {@code transactions}. */
    boolean canWrite(Transactions transactions) {
        if (failingSinceNanos.get() == 0) {
            return true;
        }
        long now = System.nanoTime();
        long last = lastProbeNanos.get();
        if (now - last >= PROBE_INTERVAL.toNanos() && lastProbeNanos.compareAndSet(last, now)) {
            try {
                transactions.inTransaction(connection -> {
                    try (PreparedStatement ps = connection.prepareStatement(PROBE_WRITE.sql())) {
                        PROBE_WRITE.setLong(ps, "probed_at", System.currentTimeMillis());
                        return ps.executeUpdate();
                    }
                });
            } catch (DatabaseUnavailableException | StoreException e) {
                return false;
            }
        }
        return failingSinceNanos.get() == 0;
    }

    /** A write committed: writes work (again). */
    void wrote() {
        failingSinceNanos.set(0);
        faultLog.wrote();
    }

    /** A database fault; one that is node-wide, met by a write, marks writes as failing. */
    void failed(SqlFaults.Diagnosis diagnosis, boolean writes) {
        if (writes && diagnosis.nodeWide()) {
            failingSinceNanos.compareAndSet(0, System.nanoTime());
        }
        faultLog.failed(diagnosis);
    }
}
