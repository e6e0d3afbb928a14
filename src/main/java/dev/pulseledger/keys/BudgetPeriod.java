package dev.pulseledger.keys;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;
import java.util.Arrays;
import java.util.Optional;

/** The window of a key budget (CONTRACT §14): a UTC day, a week starting on Monday, or a calendar month. */
public enum BudgetPeriod {
    DAY("day"),
    WEEK("week"),
    MONTH("month");

    private final String wire;

    BudgetPeriod(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<BudgetPeriod> fromWire(String text) {
        return Arrays.stream(values()).filter(p -> p.wire.equals(text)).findFirst();
    }

    /** The start of the window that holds {@code at}. */
    public Instant windowStart(Instant at) {
        LocalDate day = LocalDate.ofInstant(at, ZoneOffset.UTC);
        LocalDate start = switch (this) {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
            case MONTH -> day.withDayOfMonth(1);
        };
        return start.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** The end of the window that holds {@code at}: the start of the next, when the budget resets. */
    public Instant windowEnd(Instant at) {
        LocalDate start = LocalDate.ofInstant(windowStart(at), ZoneOffset.UTC);
        LocalDate end = switch (this) {
            case DAY -> start.plusDays(1);
            case WEEK -> start.plusWeeks(1);
            case MONTH -> start.plusMonths(1);
        };
        return end.atStartOfDay(ZoneOffset.UTC).toInstant();
    }
}
