package dev.pulseledger.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.keys.Secrets;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.NodeMetrics;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A client flooding made-up keys is held off by its address's allowance of failed authentications:
 * past it, 429 with Retry-After and no database work, while a good key keeps working.
 */
class FailedAuthenticationFloodTest {
    private static final int ALLOWANCE = 20;
    private static final int FLOODERS = 16;
    private static final int REQUESTS_PER_FLOODER = 250;
    private static final Duration BASELINE = Duration.ofSeconds(2);

    @Test
    void aFloodOfUnknownKeysGets429sAndCostsTheDatabaseAlmostNothing() throws Exception {
        // Events are read rarely here, so the node's own background reads barely count.
        try (TestNode node = TestNode.start(
                TestStore.POSTGRESQL.newDatabaseUrl(),
                "--auth-failures-per-minute",
                Integer.toString(ALLOWANCE),
                "--events-poll-ms",
                "5000",
                "--auth-failure-hold-ms",
                "0")) {
            Api legit = node.caller(new Fixtures(node).caller(1000).key());
            assertThat(legit.get("/api/tokens/balance").status()).isEqualTo(200);
            // The node's own background work (feeds, workers) runs meanwhile; measured alone first, it is
            // taken out of the count so that what remains is what the flood caused.
            long idleStart = System.nanoTime();
            long idleBefore = NodeMetrics.databaseTransactions(node.baseUrl());
            Thread.sleep(BASELINE);
            long before = NodeMetrics.databaseTransactions(node.baseUrl());
            long authenticationBefore = NodeMetrics.authenticationReads(node.baseUrl());
            double backgroundPerMilli =
                    (double) (before - idleBefore) / ((System.nanoTime() - idleStart) / 1_000_000.0);

            long start = System.nanoTime();
            Map<Integer, Integer> statuses = flood(node);
            long elapsedMillis = (System.nanoTime() - start) / 1_000_000;

            long transactions = NodeMetrics.databaseTransactions(node.baseUrl()) - before;
            long authenticationReads = NodeMetrics.authenticationReads(node.baseUrl()) - authenticationBefore;
            int sent = FLOODERS * REQUESTS_PER_FLOODER;
            double caused = Math.max(0, transactions - backgroundPerMilli * elapsedMillis);
            System.out.printf(
                    "Flood of %d unknown keys in %d ms: %s; %d database transactions, of which the node's"
                            + " background work at %.1f/s; %.4f per request caused by the flood; %d reads on the"
                            + " authentication path%n",
                    sent,
                    elapsedMillis,
                    statuses,
                    transactions,
                    backgroundPerMilli * 1000,
                    caused / sent,
                    authenticationReads);
            // Only the allowance, and what refills of it meanwhile, is answered 401.
            int most401 = ALLOWANCE + (int) (elapsedMillis * ALLOWANCE / 60_000) + 1;
            assertThat(statuses.get(401)).isLessThanOrEqualTo(most401);
            assertThat(statuses.get(429)).isGreaterThanOrEqualTo(sent - most401);
            assertThat(caused / sent).isLessThan(0.01);
            assertThat(authenticationReads)
                    .as("key lookups and early access-feed reads: even the allowance's 401s cost none")
                    .isZero();
            assertThat(legit.get("/api/tokens/balance").status())
                    .as("a good key from the flooding address")
                    .isEqualTo(200);
        }
    }

    @Test
    void theRefusalCarriesRetryAfterAndTheContractsProblemShape() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--auth-failures-per-minute", "2")) {
            Api stranger = node.caller(Secrets.newCallerKey());
            assertThat(stranger.get("/api/tokens/balance").status()).isEqualTo(401);
            assertThat(stranger.get("/api/tokens/balance").status()).isEqualTo(401);

            Reply refused = stranger.get("/api/tokens/balance");

            assertThat(refused.status()).isEqualTo(429);
            assertThat(refused.code()).isEqualTo("too_many_failed_authentications");
            assertThat(refused.contentType()).isEqualTo("application/problem+json");
            assertThat(Long.parseLong(refused.header("Retry-After").orElseThrow()))
                    .isBetween(1L, 60L);
            assertThat(refused.json().path("status").asInt()).isEqualTo(429);
            assertThat(refused.json().path("type").asText()).endsWith("/too-many-failed-authentications");
            assertThat(refused.header("X-Request-Id"))
                    .as("every response has a request id")
                    .isPresent();
            assertThat(refused.header("Cache-Control")).contains("no-store");
            assertThat(stranger.get("/admin/plans").status())
                    .as("an unknown key on an admin path, from the same address")
                    .isEqualTo(429);
            assertThat(node.admin().get("/admin/plans").status())
                    .as("the admin key from the same address")
                    .isEqualTo(200);
            assertThat(node.anonymous().get("/api/tokens/balance").code()).isEqualTo("missing_api_key");
        }
    }

    @Test
    void aFloodersRefusalsAreHeldWhileGoodKeysFromItsAddressAreAnsweredAtOnce() throws Exception {
        Duration hold = Duration.ofSeconds(5);
        try (TestNode node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--auth-failures-per-minute",
                "1",
                "--auth-failure-hold-ms",
                Long.toString(hold.toMillis()))) {
            Api legit = node.caller(new Fixtures(node).caller(1000).key());
            Api stranger = node.caller(Secrets.newCallerKey());
            assertThat(stranger.get("/api/tokens/balance").status()).isEqualTo(401);

            long start = System.nanoTime();
            CompletableFuture<Reply> refused = CompletableFuture.supplyAsync(() -> stranger.get("/api/tokens/balance"));
            assertThat(legit.get("/api/tokens/balance").status()).isEqualTo(200);
            assertThat(refused)
                    .as("the refusal, while the good key was answered")
                    .isNotDone();

            assertThat(refused.get().status()).isEqualTo(429);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(hold);
        }
    }

    @Test
    void requestsArrivingTogetherPastTheAllowanceAreAllRefusedAtTheGateAndHeld() throws Exception {
        Duration hold = Duration.ofMillis(500);
        int together = 16;
        try (TestNode node = TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--auth-failures-per-minute",
                        "1",
                        "--auth-failure-hold-ms",
                        Long.toString(hold.toMillis()));
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Map.Entry<Integer, Duration>>> answers = new ArrayList<>();
            for (int i = 0; i < together; i++) {
                answers.add(threads.submit(() -> {
                    long start = System.nanoTime();
                    int status = node.caller(Secrets.newCallerKey())
                            .get("/api/tokens/balance")
                            .status();
                    return Map.entry(status, Duration.ofNanos(System.nanoTime() - start));
                }));
            }
            List<Integer> statuses = new ArrayList<>();
            List<Duration> refusalTimes = new ArrayList<>();
            for (Future<Map.Entry<Integer, Duration>> answer : answers) {
                statuses.add(answer.get().getKey());
                if (answer.get().getKey() == 429) {
                    refusalTimes.add(answer.get().getValue());
                }
            }

            // The allowance of one goes to whichever request reaches the gate first; the others do not
            // wait for the key list with it only to get an unheld 429 afterwards.
            assertThat(statuses).filteredOn(status -> status == 401).hasSize(1);
            assertThat(statuses).filteredOn(status -> status == 429).hasSize(together - 1);
            assertThat(refusalTimes).allSatisfy(took -> assertThat(took).isGreaterThanOrEqualTo(hold));
        }
    }

    @Test
    void forwardedForNamesTheClientOnlyWhenTheProxyIsTrusted() {
        String url = TestStore.SQLITE.newDatabaseUrl();
        try (TestNode behindProxy = TestNode.start(
                        url, "--auth-failures-per-minute", "1", "--trusted-proxies", "127.0.0.0/8, ::1");
                TestNode direct = TestNode.start(url, "--auth-failures-per-minute", "1")) {
            assertThat(unknownKeyFrom(behindProxy, "203.0.113.7")).isEqualTo(401);
            assertThat(unknownKeyFrom(behindProxy, "203.0.113.7")).isEqualTo(429);
            assertThat(unknownKeyFrom(behindProxy, "203.0.113.8"))
                    .as("another client behind the same proxy")
                    .isEqualTo(401);

            assertThat(unknownKeyFrom(direct, "203.0.113.9")).isEqualTo(401);
            assertThat(unknownKeyFrom(direct, "203.0.113.10"))
                    .as("a forged X-Forwarded-For from an untrusted peer changes nothing")
                    .isEqualTo(429);
        }
    }

    private static int unknownKeyFrom(TestNode node, String forwardedFor) {
        return node.caller(Secrets.newCallerKey())
                .send("GET", "/api/tokens/balance", null, Map.of("X-Forwarded-For", "198.51.100.1, " + forwardedFor))
                .status();
    }

    /** Every flooder sends its requests back to back, each with a new random key; counts the statuses. */
    private static Map<Integer, Integer> flood(TestNode node) throws Exception {
        Map<Integer, AtomicInteger> counts = new ConcurrentHashMap<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> flooders = new ArrayList<>();
            for (int f = 0; f < FLOODERS; f++) {
                flooders.add(threads.submit(() -> {
                    for (int i = 0; i < REQUESTS_PER_FLOODER; i++) {
                        int status = node.caller(Secrets.newCallerKey())
                                .get("/api/tokens/balance")
                                .status();
                        counts.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
                    }
                }));
            }
            for (Future<?> flooder : flooders) {
                flooder.get();
            }
        }
        Map<Integer, Integer> statuses = new TreeMap<>();
        counts.forEach((status, count) -> statuses.put(status, count.get()));
        return statuses;
    }
}
