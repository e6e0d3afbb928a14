package dev.pulseledger.accounts;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Optional;

/**
 * How long a plan's period lasts. Boundaries are counted from the account's anchor in UTC, so a month
 * anchored on Jan 31 ends on Feb 28 (or 29), then Mar 31: clamped to the month's end, never drifting.
 */
public enum PlanPeriod {
    DAY("day"),
    WEEK("week"),
    MONTH("month"),
    YEAR("year");

    private final String wire;

    PlanPeriod(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<PlanPeriod> fromWire(String text) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(text)).findFirst();
    }

    /** The start of the {@code n}-th period after the one that starts at {@code anchor}. */
    public Instant boundary(Instant anchor, long n) {
        LocalDateTime start = LocalDateTime.ofInstant(anchor, ZoneOffset.UTC);
        LocalDateTime boundary = switch (this) {
            case DAY -> start.plusDays(n);
            case WEEK -> start.plusWeeks(n);
            case MONTH -> start.plusMonths(n);
            case YEAR -> start.plusYears(n);
        };
        return boundary.toInstant(ZoneOffset.UTC);
    }
}
