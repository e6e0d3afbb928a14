package dev.pulseledger.verify;

import dev.pulseledger.ledger.read.LedgerVerifier;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.StoreException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pulseledger verify}: checks the ledger invariants on a live database and prints every
 * mismatch. Exit 0: none found; 1: mismatches found; 2: the database could not be checked.
 */
@Command(
        name = "verify",
        mixinStandardHelpOptions = true,
        description = "Check that every balance equals its credits minus unreverted spendings, and print each"
                + " mismatch. Exits 1 when any is found, 2 when the database cannot be checked.")
public final class VerifyCommand implements Callable<Integer> {
    static final int MISMATCHES_FOUND = 1;
    static final int NOT_CHECKED = 2;
    private static final String SQLITE = "jdbc:sqlite:";
    private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(5);
    /** The checks read every account and spending; a large ledger needs more than a request does. */
    private static final Duration STATEMENT_TIMEOUT = Duration.ofMinutes(10);

    @Option(
            names = "--database-url",
            defaultValue = "${env:PULSELEDGER_DATABASE_URL:-jdbc:sqlite:./data/pulseledger.db}",
            description = "jdbc:sqlite:… or jdbc:postgresql:… (PULSELEDGER_DATABASE_URL).")
    String databaseUrl;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (!databaseUrl.startsWith(SQLITE) && !databaseUrl.startsWith("jdbc:postgresql:")) {
            err.println("pulseledger verify: --database-url must start with jdbc:sqlite: or jdbc:postgresql:");
            return NOT_CHECKED;
        }
        if (databaseUrl.startsWith(SQLITE) && !Files.isRegularFile(sqliteFile())) {
            err.println("pulseledger verify: no database file at " + sqliteFile());
            return NOT_CHECKED;
        }
        List<LedgerVerifier.Mismatch> mismatches;
        try (Database database = Database.openWithoutMigrating(
                new Database.Settings(databaseUrl, 1, CONNECTION_TIMEOUT, STATEMENT_TIMEOUT, Duration.ZERO))) {
            mismatches = new LedgerVerifier(database).verify();
        } catch (StoreException e) {
            err.println("pulseledger verify: the database could not be read as a Pulseledger database: "
                    + e.sqlException().getMessage());
            return NOT_CHECKED;
        }
        for (LedgerVerifier.Mismatch mismatch : mismatches) {
            out.println("MISMATCH account " + mismatch.accountId() + ": " + mismatch.problem());
        }
        out.println(
                mismatches.isEmpty()
                        ? "OK: every balance matches its ledger."
                        : mismatches.size() + " mismatch(es) found.");
        out.flush();
        return mismatches.isEmpty() ? 0 : MISMATCHES_FOUND;
    }

    private Path sqliteFile() {
        String file = databaseUrl.substring(SQLITE.length());
        int query = file.indexOf('?');
        return Path.of(query >= 0 ? file.substring(0, query) : file);
    }
}
