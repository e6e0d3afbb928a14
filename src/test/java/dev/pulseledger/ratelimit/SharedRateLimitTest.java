package dev.pulseledger.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.RedisServer;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two nodes sharing one Redis: a key's plan limit holds across both, and when Redis stops, requests
 * are still served (each node then counts on its own). Both nodes read one test clock, so a minute
 * of traffic takes seconds: the clock stands still while the requests run, then moves a minute.
 */
class SharedRateLimitTest {
    private static final int LIMIT_PER_MINUTE = 600;
    private static final int REQUESTS_PER_MINUTE = 1500;

    @Test
    void twoNodesSharingRedisAcceptAtMostThePlansLimitPerMinuteAndKeepServingWhenRedisStops() throws Exception {
        TestClock clock = new TestClock(Instant.now());
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (RedisServer redis = RedisServer.start();
                TestNode first = TestNode.start(TestNode.config(url, "--redis-url", redis.url()), clock);
                TestNode second = TestNode.start(TestNode.config(url, "--redis-url", redis.url()), clock)) {
            Fixtures fixtures = new Fixtures(first);
            fixtures.rateLimitedPlan("shared", LIMIT_PER_MINUTE);
            String key = fixtures.key(fixtures.account("shared", 1000));
            List<Api> nodes = List.of(first.caller(key), second.caller(key));

            for (int minute = 1; minute <= 2; minute++) {
                Map<Integer, Integer> statuses = send(nodes, REQUESTS_PER_MINUTE);
                System.out.printf("Minute %d across two nodes sharing Redis: %s%n", minute, statuses);
                assertThat(statuses.getOrDefault(200, 0))
                        .as("accepted in minute %d", minute)
                        .isBetween(LIMIT_PER_MINUTE, LIMIT_PER_MINUTE * 101 / 100);
                assertThat(statuses.keySet()).containsOnly(200, 429);
                clock.advance(Duration.ofMinutes(1));
            }

            // Redis stops in the middle of a minute's traffic, with requests in flight.
            Tally aroundTheStop = send(nodes, 1000, 300, redis::stop);
            System.out.printf(
                    "Redis stopped mid-run: %s before, %s after%n", aroundTheStop.before(), aroundTheStop.after());
            assertThat(aroundTheStop.before().keySet()).as("never a 5xx").isSubsetOf(200, 429);
            assertThat(aroundTheStop.after().keySet()).as("never a 5xx").isSubsetOf(200, 429);
            assertThat(aroundTheStop.after().getOrDefault(200, 0))
                    .as("served after Redis stopped: each node counts on its own, from a full bucket")
                    .isPositive();
        }
    }

    /** Statuses of the requests sent before an action ran, and of those sent after it returned. */
    private record Tally(Map<Integer, Integer> before, Map<Integer, Integer> after) {}

    private static Map<Integer, Integer> send(List<Api> nodes, int count) throws Exception {
        return send(nodes, count, count, () -> {}).before();
    }

    /**
     * Sends {@code count} balance reads spread over the nodes from 8 threads; the sender of request
     * number {@code at} first runs {@code action}, and requests started after it count as after.
     */
    private static Tally send(List<Api> nodes, int count, int at, Runnable action) throws Exception {
        Map<Integer, AtomicInteger> before = new ConcurrentHashMap<>();
        Map<Integer, AtomicInteger> after = new ConcurrentHashMap<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger next = new AtomicInteger();
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            List<Future<?>> senders = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                senders.add(threads.submit(() -> {
                    for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                        if (i == at) {
                            action.run();
                            done.set(true);
                        }
                        Map<Integer, AtomicInteger> counts = done.get() ? after : before;
                        int status = nodes.get(i % nodes.size())
                                .get("/api/tokens/balance")
                                .status();
                        counts.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                }));
            }
            for (Future<?> sender : senders) {
                sender.get();
            }
        }
        return new Tally(sorted(before), sorted(after));
    }

    private static Map<Integer, Integer> sorted(Map<Integer, AtomicInteger> counts) {
        Map<Integer, Integer> statuses = new TreeMap<>();
        counts.forEach((status, n) -> statuses.put(status, n.get()));
        return statuses;
    }
}
