package dev.pulseledger.ledger.db;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Decision;
import dev.pulseledger.ledger.core.LedgerState;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.store.Database;
import java.time.Duration;
import java.util.function.Function;

/**
 * What the ledger needs from a database: one round per batch. Each database has its own
 * implementation; every difference between them lives there.
 */
public interface LedgerStore {
    /**
     * Runs one round in one transaction: locks every account of {@code query} until the transaction
     * ends, so that rounds touching one account take turns on every node; reads the state the query
     * names; writes the change set that {@code decide} returns for it; commits.
     *
     * <p>An account whose lock another transaction holds is waited for at most {@code lockWait}. With
     * {@link Duration#ZERO} the round waits for none: it takes the locks it can get at once and, if any
     * account's lock is held elsewhere, ends without writing and names those accounts, so that a batch
     * never shares the fate of one busy account. A database with one lock for everything (SQLite) has
     * no busy accounts: its wait is the database's own.
     *
     * @return the decision, once committed
     * @throws AccountsBusyException when {@code lockWait} is zero and some accounts were locked elsewhere
     */
    Decision round(StateQuery query, Duration lockWait, Function<LedgerState, Decision> decide);

    /** The store for the database's dialect. */
    static LedgerStore forDatabase(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        return switch (database.dialect()) {
            case POSTGRESQL -> new PostgresLedgerStore(database, outbox, accessChanges);
            case SQLITE -> new SqliteLedgerStore(database, outbox, accessChanges);
        };
    }
}
