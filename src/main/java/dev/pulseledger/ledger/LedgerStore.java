package dev.pulseledger.ledger;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.store.Database;
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
     * @return the decision, once committed
     */
    Decision round(StateQuery query, Function<LedgerState, Decision> decide);

    /** The store for the database's dialect. */
    static LedgerStore forDatabase(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        return switch (database.dialect()) {
            case POSTGRESQL -> new PostgresLedgerStore(database, outbox, accessChanges);
            case SQLITE -> new SqliteLedgerStore(database, outbox, accessChanges);
        };
    }
}
