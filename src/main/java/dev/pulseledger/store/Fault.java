package dev.pulseledger.store;

import java.time.Duration;

/**
 * What a database fault means to a caller: it can only wait, so each kind is answered 503 with its own
 * stable code, a retry hint, and a message that names no library.
 */
public enum Fault {
    /** The database is unreachable, shutting down, read-only after a failover, or timed out. */
    DATABASE_UNAVAILABLE(
            "database_unavailable", "The database is not available right now; retry shortly.", Duration.ofSeconds(1)),
    /** The database's disk is full: nothing can be written until space is freed. */
    STORAGE_FULL("storage_full", "The database's storage is full; retry later.", Duration.ofSeconds(5)),
    /** One account's lock is held elsewhere (lock not granted in time): other accounts are unaffected. */
    ACCOUNT_BUSY("account_busy", "The account is busy with another change; retry shortly.", Duration.ofSeconds(1));

    private final String code;
    private final String detail;
    private final Duration retryAfter;

    Fault(String code, String detail, Duration retryAfter) {
        this.code = code;
        this.detail = detail;
        this.retryAfter = retryAfter;
    }

    /** The problem's stable {@code code}. */
    public String code() {
        return code;
    }

    /** The problem's {@code detail}: the same for every occurrence. */
    public String detail() {
        return detail;
    }

    /** When a caller should try again ({@code Retry-After}). */
    public Duration retryAfter() {
        return retryAfter;
    }
}
