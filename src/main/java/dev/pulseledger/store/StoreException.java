package dev.pulseledger.store;

import java.sql.SQLException;

/** An SQL failure that is not a passing outage: a bug or a broken schema. */
public final class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient SQLException sqlException;

    public StoreException(SQLException cause) {
        super(cause.getMessage(), cause);
        this.sqlException = cause;
    }

    public SQLException sqlException() {
        return sqlException;
    }
}
