package dev.pulseledger.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.http.FailedAuthCount;
import io.github.bucket4j.Bucket;
import java.util.concurrent.TimeUnit;

/**
 * Counts failed authentications per client address in this node's memory: an allowance of N per
 * minute, refilled smoothly. A client past its allowance is refused before any key lookup, so a
 * flood of made-up keys costs a hash and a map read per request.
 */
public final class FailedAuthLimiter implements FailedAuthCount {
    /** Addresses tracked at once; beyond it the least recent start afresh, so memory stays bounded. */
    private static final long MAX_TRACKED_ADDRESSES = 100_000;

    private final long perMinute;
    /* Only addresses that failed get an entry, and a bucket untouched for a window is full again. */
    private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
            .expireAfterAccess(RateLimiter.WINDOW)
            .maximumSize(MAX_TRACKED_ADDRESSES)
            .build();

    public FailedAuthLimiter(long perMinute) {
        this.perMinute = perMinute;
    }

    /** True when {@code address} has used up its failures for now. */
    @Override
    public boolean exhausted(String address) {
        Bucket bucket = buckets.getIfPresent(address);
        return bucket != null && bucket.getAvailableTokens() < 1;
    }

    /** Counts one failed authentication from {@code address}; false when its allowance was used up. */
    @Override
    public boolean failed(String address) {
        return buckets.get(address, a -> newBucket()).tryConsume(1);
    }

    /** Gives back one failure counted for {@code address}: the key it was counted for turned out to exist. */
    @Override
    public void forgive(String address) {
        Bucket bucket = buckets.getIfPresent(address);
        if (bucket != null) {
            bucket.addTokens(1);
        }
    }

    /** Whole seconds until {@code address} may try again. */
    @Override
    public long retryAfterSeconds(String address) {
        Bucket bucket = buckets.getIfPresent(address);
        long nanos = bucket == null ? 0 : bucket.estimateAbilityToConsume(1).getNanosToWaitForRefill();
        return Math.max(1, (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1));
    }

    private Bucket newBucket() {
        return Bucket.builder().addLimit(RateLimiter.perMinute(perMinute)).build();
    }
}
