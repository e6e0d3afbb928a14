package dev.pulseledger.store;

import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.stream.Stream;

/**
 * PostgreSQL array parameters in the driver's binary form: typed Java arrays ({@code String[]},
 * {@code Long[]}) go out as bytes, where an {@code Object[]} goes out as text that the driver quotes and
 * escapes and the server parses again.
 */
public final class PgArrays {
    private PgArrays() {}

    /** A {@code text[]}; null elements stay SQL NULLs. */
    public static Array texts(Connection connection, Stream<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray(String[]::new));
    }

    /** A {@code bigint[]}; null elements stay SQL NULLs. */
    public static Array longs(Connection connection, Stream<Long> values) throws SQLException {
        return connection.createArrayOf("bigint", values.toArray(Long[]::new));
    }
}
