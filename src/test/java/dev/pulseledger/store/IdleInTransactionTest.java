package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.support.TestStore;
import java.sql.Connection;
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
    /** Longer than the server's idle-in-transaction timeout that every connection carries (2 s). */
    private static final Duration PAUSE = Duration.ofMillis(3_500);

    @Test
    void aTransactionResumedAfterTheServerEndedItsIdleSessionIsAnsweredDatabaseUnavailable() {
        try (Database database = Database.open(new Database.Settings(
                TestStore.POSTGRESQL.newDatabaseUrl(),
                2,
                Duration.ofSeconds(5),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10)))) {
            assertThatThrownBy(() -> database.inTransaction(connection -> {
                        selectOne(connection);
                        pausedProcess();
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

    /** The stand-in for SIGSTOP, then SIGCONT, between two statements of a transaction. */
    private static void pausedProcess() {
        try {
            Thread.sleep(PAUSE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int selectOne(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT 1");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
