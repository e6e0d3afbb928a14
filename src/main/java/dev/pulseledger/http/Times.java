package dev.pulseledger.http;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/** RFC 3339 timestamps in UTC, as the contract writes them. */
public final class Times {
    private Times() {}

    /** {@code 2026-11-21T10:00:00Z}, with milliseconds only when there are any. */
    public static String format(Instant instant) {
        return instant.truncatedTo(ChronoUnit.MILLIS).toString();
    }

    /** Longest RFC 3339 timestamp accepted: nanoseconds and an offset. */
    private static final int MAX_TIMESTAMP_LENGTH = 35;

    /** An RFC 3339 timestamp with a {@code Z} or numeric offset, or empty when it is not one. */
    public static Optional<Instant> parse(String text) {
        if (text.length() > MAX_TIMESTAMP_LENGTH) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(text, DateTimeFormatter.ISO_OFFSET_DATE_TIME)
                    .toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
