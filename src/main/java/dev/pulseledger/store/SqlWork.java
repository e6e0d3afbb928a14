package dev.pulseledger.store;

import java.sql.Connection;
import java.sql.SQLException;

/** A unit of JDBC work run on a connection that {@link Database} lends and takes back. */
@FunctionalInterface
public interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
}
