package dev.pulseledger.http;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** RFC 3339 timestamps in UTC, as the contract writes them. */
public final class Times {
    private Times() {}

    /** {@code 2026-11-21T10:00:00Z}, with milliseconds only when there are any. */
    public static String format(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }
}
