package dev.pulseledger.ledger;

import dev.pulseledger.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background sweep: brings accounts whose renewal or expiry is due up to date through the ledger
 * writer, so balances, listings and events are right without traffic. Each run handles a bounded number
 * of accounts; every node sweeps, and the account locks with the core's own check make a renewal happen
 * once however many nodes race for it. An account locked elsewhere is skipped, not waited for: the next
 * run comes back to it.
 */
public final class Renewals implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Renewals.class);
    private static final String SELECT_DUE = "SELECT id FROM accounts WHERE due_at <= ? ORDER BY due_at LIMIT ?";

    /** How often a run starts, and how many accounts it may bring up to date at most. */
    public record Limits(Duration interval, int batchSize, int maxBatchesPerRun) {
        public static final Limits DEFAULT = new Limits(Duration.ofSeconds(1), 200, 10);
    }

    private final Database database;
    private final LedgerWriter ledger;
    private final Clock clock;
    private final Limits limits;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("renewals").daemon(true).factory());

    public Renewals(Database database, LedgerWriter ledger, Clock clock, Limits limits) {
        this.database = database;
        this.ledger = ledger;
        this.clock = clock;
        this.limits = limits;
    }

    public Renewals start() {
        // runQuietly logs its own failures, so the future has nothing to report.
        ScheduledFuture<?> unused = scheduler.scheduleWithFixedDelay(
                this::runQuietly, 0, limits.interval().toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** Brings due accounts up to date; returns how many it handled (those it skipped as busy not counted). */
    public int run() {
        int handled = 0;
        for (int batch = 0; batch < limits.maxBatchesPerRun(); batch++) {
            List<String> due = due();
            if (due.isEmpty()) {
                break;
            }
            handled += due.size() - ledger.catchUp(due);
            if (due.size() < limits.batchSize()) {
                break;
            }
        }
        return handled;
    }

    private void runQuietly() {
        try {
            run();
        } catch (RuntimeException e) {
            LOG.warn("The renewal sweep failed; it runs again in {}: {}", limits.interval(), e.toString());
        }
    }

    private List<String> due() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_DUE)) {
                ps.setLong(1, clock.millis());
                ps.setInt(2, limits.batchSize());
                List<String> ids = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            }
        });
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
