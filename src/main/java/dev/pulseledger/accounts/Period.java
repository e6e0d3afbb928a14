package dev.pulseledger.accounts;

import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** One period of an account's plan: from {@code start} (inclusive) to {@code end} (exclusive). */
public record Period(Instant start, Instant end) {
    public Period {
        if (!end.isAfter(start)) {
            throw new IllegalArgumentException("A period must end after it starts: " + start + " " + end);
        }
    }

    /**
     * The period that contains {@code now}, counted from {@code anchor}: every boundary is computed
     * from the anchor itself, so clamped month ends never drift (Jan 31, Feb 28, Mar 31, …).
     */
    public static Period containing(Instant anchor, PlanPeriod length, Instant now) {
        long n = estimate(anchor, length, now);
        while (length.boundary(anchor, n).isAfter(now)) {
            n--;
        }
        while (!length.boundary(anchor, n + 1).isAfter(now)) {
            n++;
        }
        return new Period(length.boundary(anchor, n), length.boundary(anchor, n + 1));
    }

    private static long estimate(Instant anchor, PlanPeriod length, Instant now) {
        long days = ChronoUnit.DAYS.between(anchor, now);
        return switch (length) {
            case DAY -> days;
            case WEEK -> days / 7;
            case MONTH -> days * 12 / 365;
            case YEAR -> days / 366;
        };
    }
}
