package dev.pulseledger.ledger.write;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.ScheduledSweep;
import dev.pulseledger.store.Sql;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * The background sweep: brings accounts whose renewal or expiry is due up to date through the ledger
 * writer, so balances, listings and events are right without traffic. Each run handles a bounded number
 * of accounts; every node sweeps, and the account locks with the core's own check make a renewal happen
 * once however many nodes race for it. An account locked elsewhere is skipped, not waited for: the next
 * run comes back to it.
 */
public final class Renewals implements AutoCloseable {
    /** A run every second, of up to 10 batches of 200 accounts. */
    public static final ScheduledSweep.Limits DEFAULT_LIMITS =
            new ScheduledSweep.Limits(Duration.ofSeconds(1), 200, 10);

    private static final String SELECT_DUE =
            "SELECT id FROM accounts WHERE due_at <= :now ORDER BY due_at LIMIT :limit";

    private final Database database;
    private final LedgerWriter ledger;
    private final Clock clock;
    private final ScheduledSweep sweep;

    public Renewals(Database database, LedgerWriter ledger, Clock clock, ScheduledSweep.Limits limits) {
        this.database = database;
        this.ledger = ledger;
        this.clock = clock;
        this.sweep = new ScheduledSweep("renewals", limits, this::renewDue);
    }

    public Renewals start() {
        sweep.start(Duration.ZERO);
        return this;
    }

    /** Brings due accounts up to date; returns how many it handled. */
    public int run() {
        return sweep.runOnce();
    }

    private int renewDue(int batchSize) {
        List<String> due = due(batchSize);
        if (!due.isEmpty()) {
            // A busy account it skipped still counts: a full batch goes on to the next, which picks it again
            // with other due accounts, so one locked account never ends a run early.
            ledger.catchUp(due);
        }
        return due.size();
    }

    private List<String> due(int batchSize) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_DUE)
                        .bind("now", clock.millis())
                        .bind("limit", batchSize)
                        .mapTo(String.class)
                        .list();
            }
        });
    }

    @Override
    public void close() {
        sweep.close();
    }
}
