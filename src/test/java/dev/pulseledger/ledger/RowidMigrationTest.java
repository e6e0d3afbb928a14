package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
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
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The SQLite upgrades that drop AUTOINCREMENT from spendings and ledger lines (V190) and from reservations
 * (V293): every row keeps its sequence number, the indexes are back, and rows written afterwards are numbered
 * after the old ones, so listings and their cursors read as before.
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

    /**
     * V293 rebuilds reservations the same way; its holds from before V292 keep their draws in spending_grants,
     * and a settle of one reads and returns them there while a new hold names its grant in its own row.
     */
    @Test
    void reservationsKeepTheirSequenceAndAnOlderHoldSettlesFromItsDrawRow() throws SQLException {
        String url = TestStore.SQLITE.newDatabaseUrlMigratedTo("292"); // the last migration before V293
        String held = "rsv_01aaaaaaaaaaaaaaaaaaaaaaa1";
        String released = "rsv_01aaaaaaaaaaaaaaaaaaaaaaa2";
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO accounts (id, name, plan_id, balance, created_at, period_anchor, due_at,"
                    + " last_line_at) VALUES ('" + ACCOUNT + "', 'Old', 'free', 20, " + T + ", " + T + ", " + T
                    + ", " + (T + 3000) + ")");
            sql.executeUpdate("INSERT INTO grants (id, account_id, kind, amount, remaining, expired, created_at, live)"
                    + " VALUES ('" + GRANT + "', '" + ACCOUNT + "', 'credit', 30, 20, 0, " + T + ", 1)");
            // A hold still held and one released, with gaps in their sequence numbers.
            long expires = T + 365L * 24 * 3600 * 1000 * 100;
            sql.executeUpdate("INSERT INTO reservations (seq, id, account_id, amount, status, created_at, expires_at,"
                    + " ended_at, end_balance) VALUES"
                    + " (4, '" + held + "', '" + ACCOUNT + "', 10, 'held', " + (T + 2000) + ", " + expires
                    + ", NULL, NULL),"
                    + " (8, '" + released + "', '" + ACCOUNT + "', 3, 'released', " + (T + 2500) + ", " + expires
                    + ", " + (T + 3000) + ", 20)");
            sql.executeUpdate("INSERT INTO spending_grants (spending_id, grant_id, amount, returned) VALUES" + " ('"
                    + held + "', '" + GRANT + "', 10, 0), ('" + released + "', '" + GRANT + "', 3, 3)");
            sql.executeUpdate("INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id,"
                    + " reason, grant_id, created_at) VALUES"
                    + " ('" + ACCOUNT + "', 'credit', 30, 30, NULL, 'opening', '" + GRANT + "', " + (T + 1000) + "),"
                    + " ('" + ACCOUNT + "', 'hold', -10, 20, '" + held + "', NULL, NULL, " + (T + 2000) + "),"
                    + " ('" + ACCOUNT + "', 'hold', -3, 17, '" + released + "', NULL, NULL, " + (T + 2500) + "),"
                    + " ('" + ACCOUNT + "', 'release', 3, 20, '" + released + "', NULL, NULL, " + (T + 3000) + ")");
        }

        try (TestNode node = TestNode.start(url)) {
            Api caller = node.caller(new Fixtures(node).key(ACCOUNT));
            String made = caller.post("/api/tokens/reservations", Map.of("amount", 5))
                    .json()
                    .path("reservationId")
                    .textValue();
            int settled = caller.post("/api/tokens/reservations/" + held + "/settle", Map.of("amount", 4))
                    .status();

            assertThat(settled).isEqualTo(200);
            assertThat(column(url, "SELECT seq FROM reservations ORDER BY seq")).containsExactly("4", "8", "9");
            assertThat(column(url, "SELECT id FROM reservations WHERE seq = 9")).containsExactly(made);
            assertThat(column(url, "SELECT returned FROM spending_grants WHERE spending_id = '" + held + "'"))
                    .containsExactly("10");
            assertThat(column(url, "SELECT sql FROM sqlite_schema WHERE name = 'reservations'"))
                    .singleElement()
                    .matches(table -> !table.contains("AUTOINCREMENT"));
            assertThat(column(
                            url,
                            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"
                                    + " AND tbl_name = 'reservations' ORDER BY name"))
                    .containsExactly("reservations_account_seq", "reservations_held");
            assertThat(ids(caller, "/api/tokens/reservations", "reservationId")).containsExactly(made, released, held);
            assertThat(caller.get("/api/tokens/balance").json().path("balance").asLong())
                    .isEqualTo(20 - 5 + 10 - 4);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    /** The listing's ids, newest first, one item a page so that every cursor is followed. */
    private static List<String> ids(Api api, String path) {
        return ids(api, path, "spendingId");
    }

    private static List<String> ids(Api api, String path, String idField) {
        List<String> ids = new ArrayList<>();
        SpendBook.allPages(api, path, 1)
                .forEach(item -> ids.add(item.path(idField).textValue()));
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
