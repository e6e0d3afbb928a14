package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The upgrade to grants (V10) on a database written before it: every existing balance becomes one
 * never-expiring grant without losing a token, old spendings can still be reverted, and an old plan's
 * monthlyTokens becomes its monthly allowance.
 */
class GrantMigrationTest {
    private static final String ACCOUNT = "acct_01aaaaaaaaaaaaaaaaaaaaaaaa";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void existingBalancesBecomeOneNeverExpiringGrantAndNothingIsLost(TestStore store) throws SQLException {
        String url = store.newDatabaseUrlMigratedTo("3"); // the schema before grants (V10)
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO plans (id, name, monthly_tokens, created_at, updated_at)"
                    + " VALUES ('pro', 'Pro', 500, 1767225600000, 1767225600000)");
            sql.executeUpdate("INSERT INTO accounts (id, name, plan_id, balance, created_at)" + " VALUES ('" + ACCOUNT
                    + "', 'Old', 'pro', 800, 1767225600000)");
            sql.executeUpdate("INSERT INTO spendings (id, account_id, amount, status, created_at, reverted_at) VALUES"
                    + " ('sp_01aaaaaaaaaaaaaaaaaaaaaaa1', '" + ACCOUNT + "', 200, 'active', 1767225601000, NULL),"
                    + " ('sp_01aaaaaaaaaaaaaaaaaaaaaaa2', '" + ACCOUNT
                    + "', 100, 'reverted', 1767225602000, 1767225603000)");
            sql.executeUpdate(
                    "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, reason,"
                            + " created_at) VALUES"
                            + " ('" + ACCOUNT + "', 'credit', 1000, 1000, NULL, 'opening balance', 1767225600000),"
                            + " ('" + ACCOUNT
                            + "', 'spend', -200, 800, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa1', NULL, 1767225601000),"
                            + " ('" + ACCOUNT
                            + "', 'spend', -100, 700, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa2', NULL, 1767225602000),"
                            + " ('" + ACCOUNT
                            + "', 'revert', 100, 800, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa2', NULL, 1767225603000)");
        }

        try (TestNode node = TestNode.start(url)) {
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
            Api admin = node.admin();
            assertThat(admin.get("/admin/plans/pro").json().path("allowance").asLong())
                    .isEqualTo(500);
            // The first read after the upgrade grants the current period's allowance.
            assertThat(admin.get("/admin/accounts/" + ACCOUNT)
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(800 + 500);
            Api caller = node.caller(new Fixtures(node).key(ACCOUNT));

            assertThat(caller.post("/api/tokens/spendings/sp_01aaaaaaaaaaaaaaaaaaaaaaa1/revert")
                            .status())
                    .isEqualTo(200);

            assertThat(caller.get("/api/tokens/balance").json().path("credits").asLong())
                    .isEqualTo(1000);
            assertThat(caller.get("/api/tokens/balance").json().path("balance").asLong())
                    .isEqualTo(1500);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }
}
