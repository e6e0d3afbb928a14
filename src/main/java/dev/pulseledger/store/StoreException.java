package dev.pulseledger.store;

import java.sql.SQLException;

/** An SQL failure that is not a passing outage: a bug or a broken schema. */
public final class StoreException extends RuntimeException {
    public StoreException(SQLException cause) {
        super(cause.getMessage(), cause);
    }

    public SQLException sqlException() {
        return (SQLException) getCause();
    }
}
