package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Sql;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The console's account search reads the index {@code accounts_name_search} from where the page
 * starts, never the whole table nor the index from its head: each store's own planner, asked to
 * explain the exact query the console runs, over a table of many accounts with fresh statistics.
 */
class AccountSearchPlanTest {
    private static final int ACCOUNTS = 200_000;
    private static final int PAGE_ROWS = 26;

    /**
     * A page touches a few dozen blocks wherever it starts; a scan from the index's head to a prefix
     * late in the alphabet touches well over a thousand at this size.
     */
    private static final int MAX_BLOCKS_PER_PAGE = 200;

    private static final Pattern HIT_OR_READ = Pattern.compile("(?:hit|read)=(\\d+)");
    private static final Pattern BUFFERS = Pattern.compile("Buffers: shared((?: \\w+=\\d+)+)");

    /** A renewal time no sweep reaches, so the filler accounts leave the renewals alone. */
    private static final long NEVER_DUE = 253_402_300_799_000L;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theSearchOfAPrefixAndItsNextPagesRunOnTheNameIndex(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Connection connection = DriverManager.getConnection(node.databaseUrl())) {
            Dialect dialect = store == TestStore.POSTGRESQL ? Dialect.POSTGRESQL : Dialect.SQLITE;
            try (Statement statement = connection.createStatement()) {
                statement.execute(dialect == Dialect.POSTGRESQL ? POSTGRES_FILL : SQLITE_FILL);
                statement.execute("ANALYZE");
            }
            // A prefix late in the index, its first page and the page after it: neither may start at the index's head.
            String lastOfFirstPage = lastIdOfFirstPage(connection, dialect, "f");
            for (String afterId : List.of("", lastOfFirstPage)) {
                String plan = explain(connection, dialect, "f", afterId);
                assertThat(plan).as("after %s", afterId).contains("accounts_name_search");
                if (dialect == Dialect.POSTGRESQL) {
                    assertThat(plan).doesNotContain("Seq Scan on accounts");
                    assertThat(blocksRead(plan))
                            .as("index and table blocks one page reads among %s accounts:%n%s", ACCOUNTS, plan)
                            .isLessThan(MAX_BLOCKS_PER_PAGE);
                } else {
                    assertThat(plan)
                            .contains("SEARCH accounts USING INDEX accounts_name_search (<expr>>? AND <expr><?)")
                            .doesNotContain("SCAN accounts");
                }
            }
        }
    }

    private static String lastIdOfFirstPage(Connection connection, Dialect dialect, String prefix) {
        try (Handle sql = Sql.on(connection)) {
            List<String> ids = AccountSearch.bind(sql.createQuery(AccountSearch.sql(dialect)), prefix, "", PAGE_ROWS)
                    .map((rs, ctx) -> rs.getString("id"))
                    .list();
            String last = ids.isEmpty() ? "" : ids.getLast();
            assertThat(last).as("a full first page for %s", prefix).isNotEmpty();
            return last;
        }
    }

    /** The blocks the top plan node touched: hit and read from shared buffers. */
    private static long blocksRead(String plan) {
        Matcher matcher = BUFFERS.matcher(plan);
        assertThat(matcher.find()).as("buffers in %s", plan).isTrue();
        long blocks = 0;
        Matcher counters = HIT_OR_READ.matcher(matcher.group(1));
        while (counters.find()) {
            blocks += Long.parseLong(counters.group(1));
        }
        return blocks;
    }

    private static final String POSTGRES_FILL = "INSERT INTO accounts (id, name, plan_id, balance, created_at, due_at)"
            + " SELECT 'acct_fill' || lpad(i::text, 6, '0'), md5(i::text), 'free', 0, 0, " + NEVER_DUE
            + " FROM generate_series(1, " + ACCOUNTS + ") AS i";

    private static final String SQLITE_FILL =
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < "
                    + ACCOUNTS + ") INSERT INTO accounts (id, name, plan_id, balance, created_at, due_at)"
                    + " SELECT 'acct_fill' || substr('000000' || i, -6), hex(randomblob(8)), 'free', 0, 0, " + NEVER_DUE
                    + " FROM n";

    /** PostgreSQL runs the query and counts the blocks it touched; SQLite tells the plan it would use. */
    private static String explain(Connection connection, Dialect dialect, String prefix, String afterId) {
        String explain = (dialect == Dialect.POSTGRESQL ? "EXPLAIN (ANALYZE, BUFFERS) " : "EXPLAIN QUERY PLAN ")
                + AccountSearch.sql(dialect);
        try (Handle sql = Sql.on(connection)) {
            List<String> lines = AccountSearch.bind(sql.createQuery(explain), prefix, afterId, PAGE_ROWS)
                    .map((rs, ctx) -> rs.getString(dialect == Dialect.POSTGRESQL ? 1 : rs.findColumn("detail")))
                    .list();
            return String.join("\n", lines);
        }
    }
}
