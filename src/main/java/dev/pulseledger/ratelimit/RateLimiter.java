package dev.pulseledger.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One Bucket4j token bucket per caller key and limit, held in this node's memory: a limit of N per
 * minute allows a burst of N, then refills smoothly at N per minute.
 */
public final class RateLimiter {
    public static final Duration WINDOW = Duration.ofMinutes(1);

    /** Enough for every active key of a large deployment; beyond it the least recent keys start afresh. */
    private static final long MAX_TRACKED_BUCKETS = 100_000;

    /** The outcome of one request against its key's bucket, with what the RateLimit headers report. */
    public record Decision(boolean allowed, long limit, long remaining, long resetSeconds, long retryAfterSeconds) {}

    /*
     * Keyed by key id and limit, so a changed limit starts a bucket of the new size. A bucket left
     * untouched for a whole window is full again, so forgetting it then loses nothing.
     */
    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(WINDOW)
            .maximumSize(MAX_TRACKED_BUCKETS)
            .build();

    /** Takes one request from the key's allowance of {@code limitPerMinute}, if any is left. */
    public Decision acquire(String keyId, long limitPerMinute) {
        Bucket bucket = buckets.get(keyId + '/' + limitPerMinute, k -> newBucket(limitPerMinute));
        ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(1);
        return new Decision(
                probe.isConsumed(),
                limitPerMinute,
                probe.getRemainingTokens(),
                wholeSeconds(probe.getNanosToWaitForReset()),
                Math.max(1, wholeSeconds(probe.getNanosToWaitForRefill())));
    }

    private static Bucket newBucket(long limitPerMinute) {
        return Bucket.builder()
                .addLimit(limit -> limit.capacity(limitPerMinute).refillGreedy(limitPerMinute, WINDOW))
                .build();
    }

    private static long wholeSeconds(long nanos) {
        return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
    }
}
