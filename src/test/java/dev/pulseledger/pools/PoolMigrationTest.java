package dev.pulseledger.pools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The upgrade to pools (V270) on a database of the release before it: every grant, spending, reservation
 * and ledger line becomes the {@code default} pool's, and every balance stays as it was.
 */
class PoolMigrationTest {
    private static final String ACCOUNT = "acct_01aaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String SPENDING = "sp_01aaaaaaaaaaaaaaaaaaaaaaa1";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void everythingExistingBecomesTheDefaultPoolAndNoBalanceMoves(TestStore store) throws SQLException {
        String url = store.newDatabaseUrlMigratedTo("252"); // the schema before pools
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO plans (id, name, allowance, period, rollover, created_at, updated_at)"
                    + " VALUES ('old', 'Old', 0, 'month', 0, 1767225600000, 1767225600000)");
            sql.executeUpdate("INSERT INTO accounts (id, name, plan_id, balance, status, created_at, period_anchor,"
                    + " due_at, last_line_at) VALUES ('" + ACCOUNT + "', 'Old', 'old', 700, 'active', 1767225600000,"
                    + " 1767225600000, 0, 1767225601000)");
            sql.executeUpdate("INSERT INTO grants (id, account_id, kind, amount, remaining, expired, created_at)"
                    + " VALUES ('gr_old', '" + ACCOUNT + "', 'credit', 1000, 700, 0, 1767225600000)");
            sql.executeUpdate("INSERT INTO spendings (id, account_id, amount, status, created_at, grant_id) VALUES"
                    + " ('" + SPENDING + "', '" + ACCOUNT + "', 300, 'active', 1767225601000, 'gr_old')");
            sql.executeUpdate("INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id,"
                    + " grant_id, reason, created_at) VALUES"
                    + " ('" + ACCOUNT + "', 'credit', 1000, 1000, NULL, 'gr_old', 'opening balance', 1767225600000),"
                    + " ('" + ACCOUNT + "', 'spend', -300, 700, '" + SPENDING + "', NULL, NULL, 1767225601000)");
        }

        try (TestNode node = TestNode.start(url)) {
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
            Api caller = node.caller(new Fixtures(node).key(ACCOUNT));
            JsonNode balance = caller.get("/api/tokens/balance").json();
            assertThat(balance.path("balance").asLong()).isEqualTo(700);
            assertThat(balance.path("credits").asLong()).isEqualTo(700);
            assertThat(balance.has("pools")).isFalse();
            assertThat(caller.get("/api/tokens/spendings/" + SPENDING)
                            .json()
                            .path("pool")
                            .asText())
                    .isEqualTo("default");
            assertThat(poolsOtherThanDefault(url)).isZero();

            assertThat(caller.post("/api/tokens/spendings/" + SPENDING + "/revert")
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(1000);
            assertThat(caller.post("/api/tokens/spend/100")
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(900);
            assertThat(poolsOtherThanDefault(url)).isZero();
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    private static long poolsOtherThanDefault(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement();
                ResultSet rs = sql.executeQuery("SELECT (SELECT COUNT(*) FROM grants WHERE pool <> 'default')"
                        + " + (SELECT COUNT(*) FROM spendings WHERE pool <> 'default')"
                        + " + (SELECT COUNT(*) FROM ledger_entries WHERE pool <> 'default')")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
