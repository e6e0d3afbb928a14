package dev.pulseledger.verify;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.Main;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import picocli.CommandLine;

class VerifyCommandTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyPassesAConsistentLedgerAndReportsABalanceChangedBehindItsBack(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String untouched = new Fixtures(node).account(50);
            spendAndRevert(node.caller(caller.key()));
            node.caller(caller.key()).post("/api/tokens/spend/30");

            Run clean = verify(node.databaseUrl());
            assertThat(clean.exitCode()).as(clean.out()).isZero();
            assertThat(clean.out()).contains("OK").doesNotContain("MISMATCH");

            execute(node.databaseUrl(), "UPDATE accounts SET balance = balance + 7 WHERE id = ?", caller.accountId());
            Run broken = verify(node.databaseUrl());

            assertThat(broken.exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
            assertThat(broken.out()).contains("MISMATCH account " + caller.accountId());
            assertThat(broken.out()).contains("balance 977");
            assertThat(broken.out()).doesNotContain(untouched);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyReportsASpendingRefundedTwice(TestStore store) throws SQLException {
        Broken broken = breakARevertedSpending(
                store,
                "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)"
                        + " SELECT account_id, kind, amount, balance_after, spending_id, created_at"
                        + " FROM ledger_entries WHERE spending_id = ? AND kind = 'revert'");

        assertThat(broken.run().exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
        assertThat(broken.run().out())
                .contains("spending " + broken.spendingId() + " has 100 reverted but revert lines of 200");
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyReportsAGrantWhoseTokensDoNotAddUp(TestStore store) throws SQLException {
        // A second draw of 5 beside the one grant the spending names in its own row.
        SpentAccount broken = breakAfterASpendOf30(
                store,
                "INSERT INTO spending_grants (spending_id, grant_id, amount, returned)"
                        + " SELECT id, grant_id, 5, 0 FROM spendings WHERE account_id = ?");

        assertThat(broken.run().exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
        assertThat(broken.run().out())
                .contains("remaining 970 + expired 0 + held by spendings 35 do not add up")
                .contains("of 30 drew 35 from grants");
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyReportsAnAccountThatLostItsNewestLineTime(TestStore store) throws SQLException {
        SpentAccount broken =
                breakAfterASpendOf30(store, "UPDATE accounts SET last_line_at = last_line_at - 1 WHERE id = ?");

        assertThat(broken.run().exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
        assertThat(broken.run().out())
                .contains("MISMATCH account " + broken.accountId() + ": newest ledger line at ")
                .contains("is after the account's last line time");
    }

    /** An account that spent 30 of 1,000 tokens, then {@code sql} run with its id, and what verify said. */
    private record SpentAccount(String accountId, Run run) {}

    private static SpentAccount breakAfterASpendOf30(TestStore store, String sql) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            node.caller(caller.key()).post("/api/tokens/spend/30");
            execute(node.databaseUrl(), sql, caller.accountId());
            return new SpentAccount(caller.accountId(), verify(node.databaseUrl()));
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyReportsLedgerRowsOfAnAccountThatDoesNotExist(TestStore store) throws SQLException {
        // On PostgreSQL no foreign key stops these rows (V170); a plain SQLite connection checks none.
        Broken broken = breakARevertedSpending(
                store,
                "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)"
                        + " SELECT 'acc_gone', kind, amount, balance_after, spending_id, created_at"
                        + " FROM ledger_entries WHERE spending_id = ?",
                "INSERT INTO spendings (id, account_id, amount, status, created_at)"
                        + " SELECT 'spd_gone', 'acc_gone', amount, 'active', created_at FROM spendings WHERE id = ?");

        assertThat(broken.run().exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
        assertThat(broken.run().out())
                .contains("MISMATCH account acc_gone: has 2 ledger lines but no account row")
                .contains("MISMATCH account acc_gone: has 1 spendings but no account row");
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void verifyReportsAReservationOfAnAccountThatDoesNotExist(TestStore store) throws SQLException {
        // On PostgreSQL no foreign key stops this row (V291); a plain SQLite connection checks none.
        SpentAccount spent = breakAfterASpendOf30(
                store,
                "INSERT INTO reservations (id, account_id, amount, status, created_at, expires_at)"
                        + " SELECT 'res_gone', 'acc_gone', 5, 'held', created_at, created_at + 60000"
                        + " FROM spendings WHERE account_id = ?");

        assertThat(spent.run().exitCode()).isEqualTo(VerifyCommand.MISMATCHES_FOUND);
        assertThat(spent.run().out()).contains("MISMATCH account acc_gone: has 1 reservations but no account row");
    }

    @Test
    void verifyRefusesAMissingDatabaseInsteadOfCreatingAnEmptyOne() {
        Run run = verify("jdbc:sqlite:/nonexistent/pulseledger-verify/none.db");

        assertThat(run.exitCode()).isEqualTo(VerifyCommand.NOT_CHECKED);
        assertThat(run.err()).contains("no database file");
    }

    @Test
    void verifyRefusesADatabaseWithoutTheSchema() {
        Run run = verify(TestStore.POSTGRESQL.newDatabaseUrl());

        assertThat(run.exitCode()).isEqualTo(VerifyCommand.NOT_CHECKED);
        assertThat(run.err()).contains("could not be read as a Pulseledger database");
    }

    /** Spends 100 and reverts it; returns the spending's id. */
    private static String spendAndRevert(Api caller) {
        String spendingId =
                caller.post("/api/tokens/spend/100").json().get("spendingId").asText();
        caller.post("/api/tokens/spendings/" + spendingId + "/revert");
        return spendingId;
    }

    private record Run(int exitCode, String out, String err) {}

    private record Broken(String spendingId, Run run) {}

    /**
     * Starts a node whose caller spent 100 and reverted it, runs each of {@code statements} with that
     * spending's id as its parameter, and runs {@code verify}.
     */
    private static Broken breakARevertedSpending(TestStore store, String... statements) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String spendingId = spendAndRevert(node.caller(caller.key()));
            for (String sql : statements) {
                execute(node.databaseUrl(), sql, spendingId);
            }
            return new Broken(spendingId, verify(node.databaseUrl()));
        }
    }

    private static Run verify(String databaseUrl) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exitCode = commandLine.execute("verify", "--database-url", databaseUrl);
        return new Run(exitCode, out.toString(), err.toString());
    }

    private static void execute(String databaseUrl, String sql, String parameter) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, parameter);
            assertThat(ps.executeUpdate()).isPositive();
        }
    }
}
