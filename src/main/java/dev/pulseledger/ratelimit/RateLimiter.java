package dev.pulseledger.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.ConsumptionProbe;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Counts each caller key's requests against its plan's limit: a limit of N per minute allows a burst
 * of N, then refills smoothly at N per minute. Counted in this node's memory ({@link
 * LocalRateLimiter}) or, shared by every node, in Redis ({@link RedisRateLimiter}).
 */
public interface RateLimiter {
    Duration WINDOW = Duration.ofMinutes(1);

    /** The outcome of one request against its key's bucket, with what the RateLimit headers report. */
    record Decision(boolean allowed, long limit, long remaining, long resetSeconds, long retryAfterSeconds) {
        static Decision of(ConsumptionProbe probe, long limit) {
            return new Decision(
                    probe.isConsumed(),
                    limit,
                    probe.getRemainingTokens(),
                    wholeSeconds(probe.getNanosToWaitForReset()),
                    Math.max(1, wholeSeconds(probe.getNanosToWaitForRefill())));
        }

        private static long wholeSeconds(long nanos) {
            return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
        }
    }

    /** Takes one request from the key's allowance of {@code limitPerMinute}, if any is left. */
    Decision acquire(String keyId, long limitPerMinute);

    /** The bucket of a limit of N per minute. */
    static Bandwidth perMinute(long limitPerMinute) {
        return BandwidthBuilder.builder()
                .capacity(limitPerMinute)
                .refillGreedy(limitPerMinute, WINDOW)
                .build();
    }
}
