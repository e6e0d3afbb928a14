package dev.pulseledger.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/** Small conversions from JDBC columns to domain values, shared by every store class. */
public final class Rows {
    private Rows() {}

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        return Instant.ofEpochMilli(rs.getLong(column));
    }

    public static Optional<Instant> optionalInstant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
    }

    public static Optional<Long> optionalLong(ResultSet rs, String column) throws SQLException {
        long value = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(value);
    }
}
