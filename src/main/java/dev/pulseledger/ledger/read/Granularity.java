package dev.pulseledger.ledger.read;

import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;

/** The width of a usage bucket: a UTC hour, day or calendar month. */
public enum Granularity {
    HOUR("hour"),
    DAY("day"),
    MONTH("month");

    private final String wire;

    Granularity(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<Granularity> fromWire(String text) {
        return Arrays.stream(values()).filter(g -> g.wire.equals(text)).findFirst();
    }

    /** The start of the bucket that holds {@code instant}. */
    public Instant floor(Instant instant) {
        return switch (this) {
            case HOUR -> instant.truncatedTo(ChronoUnit.HOURS);
            case DAY -> instant.truncatedTo(ChronoUnit.DAYS);
            case MONTH ->
                YearMonth.from(instant.atOffset(ZoneOffset.UTC))
                        .atDay(1)
                        .atStartOfDay()
                        .toInstant(ZoneOffset.UTC);
        };
    }

    /** The start of the bucket after the one that starts at {@code bucketStart}. */
    public Instant next(Instant bucketStart) {
        return switch (this) {
            case HOUR -> bucketStart.plus(1, ChronoUnit.HOURS);
            case DAY -> bucketStart.plus(1, ChronoUnit.DAYS);
            case MONTH -> bucketStart.atOffset(ZoneOffset.UTC).plusMonths(1).toInstant();
        };
    }

    /** The start of the first bucket that begins at or after {@code instant}. */
    public Instant ceil(Instant instant) {
        Instant floor = floor(instant);
        return floor.equals(instant) ? floor : next(floor);
    }

    /**
     * The width of the finer rows the database sums into, in milliseconds: hours for hourly buckets,
     * UTC days for daily and monthly ones (a month is a whole number of UTC days).
     */
    long rowMillis() {
        return this == HOUR
                ? ChronoUnit.HOURS.getDuration().toMillis()
                : ChronoUnit.DAYS.getDuration().toMillis();
    }
}
