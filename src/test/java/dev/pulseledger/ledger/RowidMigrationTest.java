package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The SQLite upgrade that drops AUTOINCREMENT from spendings and ledger lines (V190): every row keeps its
 * sequence number, the indexes are back, and rows written afterwards are numbered after the old ones, so
 * listings and their cursors read as before.
 */
class RowidMigrationTest {
    private static final String ACCOUNT = "acct_01aaaaaaaaaaaaaaaaaaaaaaaa";
    private static final String GRANT = "gr_01aaaaaaaaaaaaaaaaaaaaaaaa";
    private static final long T = 1767225600000L;

    @Test
    void rowsKeepTheirSequenceAndNewRowsFollowThem() throws SQLException {
        String url = TestStore.SQLITE.newDatabaseUrlMigratedTo("181"); // the last migration before V190
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO accounts (id, name, plan_id, balance, created_at, period_anchor, due_at,"
                    + " last_line_at) VALUES ('" + ACCOUNT + "', 'Old', 'free', 27, " + T + ", " + T + ", " + T
                    + ", " + (T + 3000) + ")");
            sql.executeUpdate("INSERT INTO grants (id, account_id, kind, amount, remaining, expired, created_at)"
                    + " VALUES ('" + GRANT + "', '" + ACCOUNT + "', 'credit', 30, 27, 0, " + T + ")");
            // Sequence numbers with gaps, as rows of other accounts would leave them.
            sql.executeUpdate("INSERT INTO spendings (seq, id, account_id, amount, status, created_at, grant_id)"
                    + " VALUES (5, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa1', '" + ACCOUNT + "', 1, 'active', " + (T + 2000)
                    + ", '" + GRANT + "'), (9, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa2', '" + ACCOUNT + "', 2, 'active', "
                    + (T + 3000) + ", '" + GRANT + "')");
            sql.executeUpdate("INSERT INTO ledger_entries (seq, account_id, kind, amount, balance_after, spending_id,"
                    + " reason, grant_id, created_at) VALUES"
                    + " (3, '" + ACCOUNT + "', 'credit', 30, 30, NULL, 'opening', '" + GRANT + "', " + (T + 1000) + "),"
                    + " (6, '" + ACCOUNT + "', 'spend', -1, 29, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa1', NULL, NULL, "
                    + (T + 2000) + "),"
                    + " (11, '" + ACCOUNT + "', 'spend', -2, 27, 'sp_01aaaaaaaaaaaaaaaaaaaaaaa2', NULL, NULL, "
                    + (T + 3000) + ")");
        }

        try (TestNode node = TestNode.start(url)) {
            Api caller = node.caller(new Fixtures(node).key(ACCOUNT));
            String spent =
                    caller.post("/api/tokens/spend/3").json().path("spendingId").textValue();

            assertThat(column(url, "SELECT seq FROM spendings ORDER BY seq")).containsExactly("5", "9", "10");
            assertThat(column(url, "SELECT seq FROM ledger_entries ORDER BY seq"))
                    .containsExactly("3", "6", "11", "12");
            assertThat(column(url, "SELECT id FROM spendings WHERE seq = 10")).containsExactly(spent);
            assertThat(column(url, "SELECT sql FROM sqlite_schema WHERE name IN ('spendings', 'ledger_entries')"))
                    .hasSize(2)
                    .noneMatch(table -> table.contains("AUTOINCREMENT"));
            assertThat(column(
                            url,
                            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
                                    + " AND tbl_name IN ('spendings', 'ledger_entries') ORDER BY name"))
                    .containsExactly("ledger_entries_account_time", "ledger_entries_spending", "spendings_account_seq");
            assertThat(ids(caller, "/api/tokens/spendings"))
                    .containsExactly(spent, "sp_01aaaaaaaaaaaaaaaaaaaaaaa2", "sp_01aaaaaaaaaaaaaaaaaaaaaaa1");
            assertThat(caller.get("/api/tokens/balance").json().path("balance").asLong())
                    .isEqualTo(24);
        }
    }

    /** The listing's ids, newest first, one item a page so that every cursor is followed. */
    private static List<String> ids(Api api, String path) {
        List<String> ids = new ArrayList<>();
        SpendBook.allPages(api, path, 1)
                .forEach(item -> ids.add(item.path("spendingId").textValue()));
        return ids;
    }

    private static List<String> column(String url, String query) throws SQLException {
        List<String> values = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement();
                ResultSet rs = sql.executeQuery(query)) {
            while (rs.next()) {
                values.add(rs.getString(1));
            }
        }
        return values;
    }
}
