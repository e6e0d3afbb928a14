package dev.pulseledger.support;

import dev.pulseledger.ledger.read.LedgerVerifier;
import dev.pulseledger.store.Database;
import java.time.Duration;
import java.util.List;

/** Checks a test database's ledger invariants from outside the nodes, as an auditor would. */
public final class LedgerAudit {
    private LedgerAudit() {}

    /** Every broken CONTRACT §6 invariant {@link LedgerVerifier} finds in the database. */
    public static List<LedgerVerifier.Mismatch> mismatches(String databaseUrl) {
        try (Database database = open(databaseUrl)) {
            return new LedgerVerifier(database).verify();
        }
    }

    /**
     * A small pool of its own on the database, for tests that look at it directly. It never migrates:
     * an auditor must see the schema exactly as the nodes (or a backup) left it.
     */
    public static Database open(String databaseUrl) {
        return Database.openWithoutMigrating(new Database.Settings(
                databaseUrl, 2, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(10)));
    }
}
