package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node paused (SIGSTOP, a long GC) inside a transaction: PostgreSQL ends the idle session, freeing its
 * locks, and the node's next statement there meets SQLSTATE 25P03. The transaction was rolled back by
 * the server, so its caller is answered 503 with Retry-After (a retry succeeds), never 500.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class IdleInTransactionTest {
    @Test
    void aTransactionResumedAfterTheServerEndedItsIdleSessionIsAnsweredDatabaseUnavailable() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (Database database = Database.open(
                new Database.Settings(url, 2, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(10)))) {
            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        int backend = backendOf(connection);
                        untilTheServerEnds(url, backend);
                        return selectOne(connection);
                    }))
                    .isInstanceOfSatisfying(
                            DatabaseUnavailableException.class,
                            e -> assertThat(e.fault()).isEqualTo(Fault.DATABASE_UNAVAILABLE));

            assertThat(database.inTransaction(IdleInTransactionTest::selectOne))
                    .as("the next transaction runs on a live connection")
                    .isEqualTo(1);
        }
    }

    /**
     * The stand-in for SIGSTOP, then SIGCONT, between two statements of a transaction: this side says
     * nothing until the server has ended the idle session (its idle-in-transaction timeout is 2 s).
     */
    private static void untilTheServerEnds(String url, int backend) {
        Waiting.until("the server ends the idle session", () -> {
            try (Connection other = DriverManager.getConnection(url);
                    PreparedStatement ps =
                            other.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE pid = ?")) {
                ps.setInt(1, backend);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getInt(1) == 0;
                }
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static int backendOf(Connection connection) throws SQLException {
        return intOf(connection, "SELECT pg_backend_pid()");
    }

    private static int selectOne(Connection connection) throws SQLException {
        return intOf(connection, "SELECT 1");
    }

    private static int intOf(Connection connection, String sql) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
