package dev.pulseledger.status.incidents;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/**
 * Hears, on the transaction of an incident's or a window's change, the notice its subscribers are
 * owed; the notice commits or rolls back with the change (status.subscribers keeps it).
 */
@FunctionalInterface
public interface NoticeSink {
    /** Keeps nothing: for nodes and tests without subscribers. */
    NoticeSink NONE = (connection, notice, at) -> {};

    void record(Connection connection, StatusNotice notice, Instant at) throws SQLException;
}
