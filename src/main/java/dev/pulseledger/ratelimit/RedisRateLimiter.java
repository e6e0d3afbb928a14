package dev.pulseledger.ratelimit;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Each key's bucket kept in Redis, so a plan's limit holds for the key across every node (Bucket4j's
 * compare-and-swap buckets over Lettuce). Redis is a helper, never a dependency: when it does not
 * answer within {@link #TIMEOUT}, requests are counted by the node's own {@link LocalRateLimiter}
 * for {@link #RETRY_AFTER}, then Redis is tried again. Each outage is logged once, and its end once.
 */
public final class RedisRateLimiter implements RateLimiter, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RedisRateLimiter.class);

    /** A Redis answer slower than this is treated as no answer: a request must not wait on its limiter. */
    public static final Duration TIMEOUT = Duration.ofMillis(250);

    /** How long the node counts on its own after Redis failed, before it tries Redis again. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private static final String KEY_PREFIX = "pulseledger:ratelimit:";

    private final RedisClient client;
    private final RateLimiter fallback;
    private final TimeMeter time;
    private final ReentrantLock connecting = new ReentrantLock();
    private volatile StatefulRedisConnection<String, byte[]> connection;
    private volatile ProxyManager<String> buckets;
    private volatile long retryAtNanos = System.nanoTime();
    private volatile boolean degraded;

    private RedisRateLimiter(RedisClient client, RateLimiter fallback, Clock clock) {
        this.client = client;
        this.fallback = fallback;
        this.time = new ClockTime(clock);
    }

    /** A limiter on the Redis at {@code url}; it connects now if it can, else later: Redis may be down. */
    public static RedisRateLimiter of(String url, RateLimiter fallback, Clock clock) {
        RedisClient client = RedisClient.create(RedisURI.create(url));
        client.setOptions(ClientOptions.builder()
                .socketOptions(SocketOptions.builder().connectTimeout(TIMEOUT).build())
                .timeoutOptions(TimeoutOptions.enabled(TIMEOUT))
                .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                .build());
        RedisRateLimiter limiter = new RedisRateLimiter(client, fallback, clock);
        limiter.sharedBuckets();
        return limiter;
    }

    @Override
    public Decision acquire(String keyId, long limitPerMinute) {
        ProxyManager<String> shared = sharedBuckets();
        if (shared != null) {
            try {
                Decision decision = Decision.of(
                        shared.builder()
                                .build(KEY_PREFIX + keyId + '/' + limitPerMinute, () -> configuration(limitPerMinute))
                                .tryConsumeAndReturnRemaining(1),
                        limitPerMinute);
                if (degraded) {
                    degraded = false;
                    LOG.info("Redis answers again: rate limits are shared by every node once more");
                }
                return decision;
            } catch (RuntimeException e) {
                failed(e);
            }
        }
        return fallback.acquire(keyId, limitPerMinute);
    }

    /** The shared buckets, connecting first if need be; null while Redis is taken to be down. */
    private ProxyManager<String> sharedBuckets() {
        if (System.nanoTime() - retryAtNanos < 0) {
            return null;
        }
        ProxyManager<String> current = buckets;
        if (current != null || !awaitConnecting()) {
            return current;
        }
        try {
            if (buckets == null) {
                connection = client.connect(RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE));
                buckets = Bucket4jLettuce.casBasedBuilder(connection)
                        .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(WINDOW))
                        .requestTimeout(TIMEOUT)
                        .clientClock(time)
                        .build();
            }
            return buckets;
        } catch (RuntimeException e) {
            failed(e);
            return null;
        } finally {
            connecting.unlock();
        }
    }

    /** Takes the right to connect; a request waits at most {@link #TIMEOUT} for another's attempt. */
    private boolean awaitConnecting() {
        try {
            return connecting.tryLock(TIMEOUT.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void failed(RuntimeException e) {
        retryAtNanos = System.nanoTime() + RETRY_AFTER.toNanos();
        if (!degraded) {
            degraded = true;
            LOG.warn(
                    "Redis (--redis-url) did not answer: counting rate limits on this node alone, trying Redis"
                            + " again every {} s: {}",
                    RETRY_AFTER.toSeconds(),
                    e.toString());
        }
    }

    private static BucketConfiguration configuration(long limitPerMinute) {
        return BucketConfiguration.builder()
                .addLimit(RateLimiter.perMinute(limitPerMinute))
                .build();
    }

    @Override
    public void close() {
        StatefulRedisConnection<String, byte[]> open = connection;
        if (open != null) {
            open.close();
        }
        client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }

    /** The node's clock as Bucket4j reads time, so every node (and a test) agrees on it. */
    private record ClockTime(Clock clock) implements TimeMeter {
        @Override
        public long currentTimeNanos() {
            return TimeUnit.MILLISECONDS.toNanos(clock.millis());
        }

        @Override
        public boolean isWallClockBased() {
            return true;
        }
    }
}
