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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The upgrade to one ledger index by account and time (V181) on a database whose lines went back in time
 * once (a clock set back, or two nodes' clocks apart): each account learns the time of its newest line,
 * and its ledger pages list every line once, newest first by time and then by sequence.
 */
class LedgerTimeMigrationTest {
    private static final String ACCOUNT = "acct_01aaaaaaaaaaaaaaaaaaaaaaaa";
    private static final long T = 1767225600000L;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void linesWrittenOutOfTimeOrderAreListedByTimeOnceEach(TestStore store) throws SQLException {
        // The last migration before V181 on each store.
        String url = store.newDatabaseUrlMigratedTo(store == TestStore.SQLITE ? "180" : "170");
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement()) {
            sql.executeUpdate("INSERT INTO accounts (id, name, plan_id, balance, created_at, period_anchor, due_at)"
                    + " VALUES ('" + ACCOUNT + "', 'Old', 'free', 30, " + T + ", " + T + ", " + T + ")");
            sql.executeUpdate("INSERT INTO grants (id, account_id, kind, amount, remaining, expired, created_at)"
                    + " VALUES ('gr_01aaaaaaaaaaaaaaaaaaaaaaaa', '" + ACCOUNT + "', 'credit', 30, 30, 0, " + T + ")");
            sql.executeUpdate("INSERT INTO ledger_entries (account_id, kind, amount, balance_after, reason, created_at)"
                    + " VALUES ('" + ACCOUNT + "', 'credit', 10, 10, 'first', " + (T + 1000) + "),"
                    + " ('" + ACCOUNT + "', 'credit', 10, 20, 'second', " + (T + 3000) + "),"
                    + " ('" + ACCOUNT + "', 'credit', 10, 30, 'third', " + (T + 2000) + ")");
        }

        try (TestNode node = TestNode.start(url)) {
            assertThat(lastLineAt(url)).isEqualTo(T + 3000);
            assertThat(reasonsPageByPage(node.admin())).containsExactly("second", "third", "first");

            assertThat(node.caller(new Fixtures(node).key(ACCOUNT))
                            .post("/api/tokens/spend/1")
                            .status())
                    .isEqualTo(201);
            assertThat(reasonsPageByPage(node.admin())).containsExactly(null, "second", "third", "first");
            assertThat(lastLineAt(url)).isGreaterThan(T + 3000);
        }
    }

    /** Walks the account's ledger one line per page, following the cursors. */
    private static List<String> reasonsPageByPage(Api admin) {
        List<String> reasons = new ArrayList<>();
        SpendBook.allPages(admin, "/admin/accounts/" + ACCOUNT + "/ledger", 1)
                .forEach(line -> reasons.add(line.path("reason").textValue()));
        return reasons;
    }

    private static long lastLineAt(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement sql = connection.createStatement();
                ResultSet rs = sql.executeQuery("SELECT last_line_at FROM accounts WHERE id = '" + ACCOUNT + "'")) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }
}
