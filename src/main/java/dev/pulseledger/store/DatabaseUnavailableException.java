package dev.pulseledger.store;

/** The database could not be reached or did not answer in time; callers should retry later. */
public final class DatabaseUnavailableException extends RuntimeException {
    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
