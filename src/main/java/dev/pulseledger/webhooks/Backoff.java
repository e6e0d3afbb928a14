package dev.pulseledger.webhooks;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with jitter between delivery attempts: the n-th retry waits between half and
 * all of {@code base × 2^(n-1)}, at most {@code max}, so failing receivers are not hammered and
 * retries of many deliveries spread out instead of arriving together.
 */
public record Backoff(Duration base, Duration max, RandomGenerator random) {
    /** Beyond this the delay is {@code max} anyway; the cap keeps the arithmetic far from overflow. */
    private static final int MAX_SHIFT = 20;

    public Backoff {
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("Backoff needs 0 < base <= max");
        }
    }

    /** How long to wait after failed attempt number {@code attempt} (1 for the first). */
    public Duration after(int attempt) {
        int shift = Math.min(Math.max(attempt - 1, 0), MAX_SHIFT);
        long ceilingMillis = Math.min(max.toMillis(), Math.multiplyExact(base.toMillis(), 1L << shift));
        long half = ceilingMillis / 2;
        return Duration.ofMillis(half + random.nextLong(ceilingMillis - half + 1));
    }
}
