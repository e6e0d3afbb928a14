package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SQLite ledger's kept statements: reused per connection, never across connections or past a failure. */
class SqliteStatementsTest {
    private static final String INSERT = "INSERT INTO t (v) VALUES (?)";

    @TempDir
    Path folder;

    @Test
    void aConnectionGetsItsStatementBackWithoutTheLastParameters() throws SQLException {
        SqliteStatements statements = new SqliteStatements();
        try (Connection connection = open()) {
            PreparedStatement first = statements.get(connection, INSERT);
            first.setLong(1, 7);
            first.executeUpdate();

            PreparedStatement again = statements.get(connection, INSERT);

            assertThat(again).isSameAs(first);
            again.setLong(1, 8);
            again.executeUpdate();
            assertThat(values(connection)).isEqualTo(15);
        }
    }

    @Test
    void anotherConnectionPreparesItsOwn() throws SQLException {
        SqliteStatements statements = new SqliteStatements();
        try (Connection one = open();
                Connection two = open()) {
            assertThat(statements.get(two, INSERT)).isNotSameAs(statements.get(one, INSERT));
        }
    }

    @Test
    void aForgottenConnectionsStatementsAreClosedAndABatchLeftOpenIsNotRunLater() throws SQLException {
        SqliteStatements statements = new SqliteStatements();
        try (Connection connection = open()) {
            PreparedStatement failed = statements.get(connection, INSERT);
            failed.setLong(1, 100);
            failed.addBatch(); // a round that failed before it ran its batch

            statements.forget(connection);
            PreparedStatement fresh = statements.get(connection, INSERT);
            fresh.setLong(1, 1);
            fresh.addBatch();
            fresh.executeBatch();

            assertThat(failed.isClosed()).isTrue();
            assertThat(fresh).isNotSameAs(failed);
            assertThat(values(connection)).isEqualTo(1);
        }
    }

    private Connection open() throws SQLException {
        Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("statements.db"));
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS t (v INTEGER NOT NULL)");
        }
        return connection;
    }

    private static long values(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT COALESCE(SUM(v), 0) FROM t")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
