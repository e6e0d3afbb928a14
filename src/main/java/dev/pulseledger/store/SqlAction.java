package dev.pulseledger.store;

import java.sql.Connection;
import java.sql.SQLException;

/** JDBC work that returns nothing, run on a connection that {@link Database} lends and takes back. */
@FunctionalInterface
public interface SqlAction {
    void run(Connection connection) throws SQLException;
}
