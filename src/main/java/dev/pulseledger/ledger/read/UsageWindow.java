package dev.pulseledger.ledger.read;

import java.time.Instant;
import java.util.Optional;

/**
 * The whole buckets a usage report covers: {@code from} (inclusive) to {@code to} (exclusive), both
 * on bucket boundaries of {@code granularity}.
 */
public record UsageWindow(Instant from, Instant to, Granularity granularity) {
    /** The most buckets one report may hold (CONTRACT §11). */
    public static final int MAX_BUCKETS = 1000;

    public UsageWindow {
        if (!granularity.floor(from).equals(from) || !granularity.floor(to).equals(to) || !from.isBefore(to)) {
            throw new IllegalArgumentException("A usage window is a non-empty run of whole buckets");
        }
    }

    /**
     * The window of whole buckets that covers {@code [from, to)}, or empty when that takes more than
     * {@link #MAX_BUCKETS} buckets.
     */
    public static Optional<UsageWindow> covering(Instant from, Instant to, Granularity granularity) {
        Instant start = granularity.floor(from);
        Instant end = granularity.ceil(to);
        if (!start.isBefore(end)) {
            end = granularity.next(start);
        }
        int buckets = 0;
        for (Instant at = start; at.isBefore(end); at = granularity.next(at)) {
            if (++buckets > MAX_BUCKETS) {
                return Optional.empty();
            }
        }
        return Optional.of(new UsageWindow(start, end, granularity));
    }
}
