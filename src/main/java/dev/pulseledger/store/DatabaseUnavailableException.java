package dev.pulseledger.store;

import org.jspecify.annotations.Nullable;

/** The database cannot do the work now for a reason that passes (a {@link Fault}); callers retry later. */
public final class DatabaseUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Fault fault;

    public DatabaseUnavailableException(String message, @Nullable Throwable cause) {
        this(Fault.DATABASE_UNAVAILABLE, message, cause);
    }

    public DatabaseUnavailableException(Fault fault, String message, @Nullable Throwable cause) {
        super(message, cause);
        this.fault = fault;
    }

    public Fault fault() {
        return fault;
    }
}
