package dev.pulseledger.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.sqlite.SQLiteConnection;

/**
 * Statements kept prepared per SQLite connection, for the ledger's round and every read's {@code PRAGMA
 * query_only}: sqlite-jdbc compiles the SQL again on every {@code prepareStatement} (no statement cache of
 * its own), which was a tenth of the node's CPU on the spend path at a handful of statements per round.
 *
 * <p>Statements are prepared on the pool's underlying connection, so the pool does not close them when
 * the connection goes back; they live as long as that connection (closing it finalizes them) and are
 * forgotten with it. A connection is used by one thread at a time, so its own map needs no lock.
 */
public final class SqliteStatements {
    private final Map<SQLiteConnection, Map<String, PreparedStatement>> byConnection = new ConcurrentHashMap<>();

    /**
     * The statement for {@code sql} on {@code connection}, ready for new parameters; the caller must not
     * close it, and must close any result set it opens before the connection goes back to the pool.
     */
    public PreparedStatement get(Connection connection, String sql) throws SQLException {
        SQLiteConnection raw = connection.unwrap(SQLiteConnection.class);
        Map<String, PreparedStatement> statements = byConnection.get(raw);
        if (statements == null) {
            forgetClosedConnections();
            statements = new HashMap<>();
            byConnection.put(raw, statements);
        }
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = raw.prepareStatement(sql);
            statements.put(sql, statement);
        } else {
            statement.clearParameters();
        }
        return statement;
    }

    /**
     * Closes and forgets the statements of {@code connection}: after a failed round, so no statement
     * left mid-batch or mid-step is used again.
     */
    public void forget(Connection connection) {
        try {
            Map<String, PreparedStatement> statements = byConnection.remove(connection.unwrap(SQLiteConnection.class));
            if (statements != null) {
                for (PreparedStatement statement : statements.values()) {
                    statement.close();
                }
            }
        } catch (SQLException e) {
            // The connection is broken; the pool closes it, which finalizes what is left.
        }
    }

    /** Connections the pool has retired or evicted no longer hold statements worth keeping. */
    private void forgetClosedConnections() throws SQLException {
        List<SQLiteConnection> closed = new ArrayList<>();
        for (SQLiteConnection connection : byConnection.keySet()) {
            if (connection.isClosed()) {
                closed.add(connection);
            }
        }
        closed.forEach(byConnection::remove);
    }
}
