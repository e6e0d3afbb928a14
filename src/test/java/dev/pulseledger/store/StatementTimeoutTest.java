package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The statement timeout really reaches each store (PostgreSQL statement_timeout, SQLite busy_timeout),
 * so a query stuck behind a lock answers 503 instead of hanging its request forever.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class StatementTimeoutTest {
    private static final Duration STATEMENT_TIMEOUT = Duration.ofMillis(700);

    @Test
    void postgresConnectionsCarryTheConfiguredStatementTimeout() {
        try (Database database = open(TestStore.POSTGRESQL.newDatabaseUrl())) {
            assertThat(answer(database, "SHOW statement_timeout")).isEqualTo("700ms");
            assertThatThrownBy(() -> answer(database, "SELECT pg_sleep(30)::text"))
                    .isInstanceOf(DatabaseUnavailableException.class);
        }
    }

    @Test
    void sqliteConnectionsCarryTheConfiguredBusyTimeoutAndDurability() {
        try (Database database = open(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(answer(database, "PRAGMA busy_timeout")).isEqualTo("700");
            assertThat(answer(database, "PRAGMA journal_mode")).isEqualTo("wal");
            assertThat(answer(database, "PRAGMA synchronous")).as("2 is FULL").isEqualTo("2");
        }
    }

    @Test
    void aTransactionThatCouldNotBeginBecauseSqliteWasBusyLeavesNoBrokenConnectionBehind() throws SQLException {
        String url = TestStore.SQLITE.newDatabaseUrl();
        try (Database database = Database.open(
                new Database.Settings(url, 1, Duration.ofSeconds(5), STATEMENT_TIMEOUT, Duration.ofSeconds(10)))) {
            database.inTransaction(connection -> update(connection, "CREATE TABLE scratch (x INTEGER)"));
            try (Connection blocker = DriverManager.getConnection(url)) {
                blocker.setAutoCommit(false);
                update(blocker, "INSERT INTO scratch VALUES (0)");
                assertThatThrownBy(() -> database.inTransaction(
                                connection -> update(connection, "INSERT INTO scratch VALUES (1)")))
                        .isInstanceOf(DatabaseUnavailableException.class);
                blocker.rollback();
            }

            // The pool's only connection again: its next transaction must still be all or nothing.
            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        update(connection, "INSERT INTO scratch VALUES (2)");
                        throw new IllegalStateException("fails after its first write");
                    }))
                    .isInstanceOf(IllegalStateException.class);
            assertThat(answer(database, "SELECT count(*) FROM scratch")).isEqualTo("0");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendStuckBehindAnotherTransactionsLockAnswers503AndChangesNothing(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(
                store.newDatabaseUrl(), "--db-statement-timeout-ms", Long.toString(STATEMENT_TIMEOUT.toMillis()))) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);

            Reply stuck;
            try (Connection blocker = DriverManager.getConnection(node.databaseUrl())) {
                holdAccountLock(store, blocker, caller.accountId());
                stuck = node.caller(caller.key()).post("/api/tokens/spend/100");
                blocker.rollback();
            }

            assertThat(stuck.status()).as(stuck.toString()).isEqualTo(503);
            assertThat(stuck.code()).isEqualTo("database_unavailable");
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1000);
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/100").status())
                    .as("a spend once the lock is gone")
                    .isEqualTo(201);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /** Takes what a spend batch needs and keeps it: the account's row lock, or SQLite's write lock. */
    private static void holdAccountLock(TestStore store, Connection connection, String accountId) throws SQLException {
        connection.setAutoCommit(false);
        String sql = switch (store) {
            case POSTGRESQL -> "SELECT balance FROM accounts WHERE id = ? FOR UPDATE";
            // Any write takes SQLite's single write lock until the transaction ends.
            case SQLITE -> "UPDATE accounts SET balance = balance WHERE id = ?";
        };
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, accountId);
            ps.execute();
        }
    }

    private static Database open(String url) {
        return Database.open(
                new Database.Settings(url, 2, Duration.ofSeconds(5), STATEMENT_TIMEOUT, Duration.ofSeconds(10)));
    }

    private static int update(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
    }

    private static String answer(Database database, String sql) {
        return database.read(connection -> text(connection, sql));
    }

    private static String text(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
