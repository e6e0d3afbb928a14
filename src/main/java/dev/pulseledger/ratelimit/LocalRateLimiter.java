package dev.pulseledger.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;

/**
 * One Bucket4j token bucket per caller key and limit, held in this node's memory: behind K nodes a
 * key may make K times its limit. The default, and what a Redis-backed limiter falls back to.
 */
public final class LocalRateLimiter implements RateLimiter {
    /** Enough for every active key of a large deployment; beyond it the least recent keys start afresh. */
    private static final long MAX_TRACKED_BUCKETS = 100_000;

    /*
     * Keyed by key id and limit, so a changed limit starts a bucket of the new size. A bucket left
     * untouched for a whole window is full again, so forgetting it then loses nothing.
     */
    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(WINDOW)
            .maximumSize(MAX_TRACKED_BUCKETS)
            .build();

    @Override
    public Decision acquire(String keyId, long limitPerMinute) {
        Bucket bucket = buckets.get(
                keyId + '/' + limitPerMinute,
                k -> Bucket.builder()
                        .addLimit(RateLimiter.perMinute(limitPerMinute))
                        .build());
        return Decision.of(bucket.tryConsumeAndReturnRemaining(1), limitPerMinute);
    }
}
