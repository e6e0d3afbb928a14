package dev.pulseledger.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RateLimitTest {
    @Test
    void aKeyOverItsPlanLimitGets429WithRetryAfterAndRateLimitHeaders() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api caller = node.caller(limitedKey(node, 3));

            for (int remaining = 2; remaining >= 0; remaining--) {
                Reply ok = caller.get("/api/tokens/balance");
                assertThat(ok.status()).as(ok.toString()).isEqualTo(200);
                assertThat(ok.header("RateLimit-Limit")).contains("3");
                assertThat(ok.header("RateLimit-Remaining")).contains(Integer.toString(remaining));
                assertThat(Long.parseLong(ok.header("RateLimit-Reset").orElseThrow()))
                        .isBetween(1L, 60L);
            }
            Reply limited = caller.post("/api/tokens/spend/100");

            assertThat(limited.status()).isEqualTo(429);
            assertThat(limited.contentType()).isEqualTo("application/problem+json");
            assertThat(limited.code()).isEqualTo("rate_limited");
            assertThat(Long.parseLong(limited.header("Retry-After").orElseThrow()))
                    .isBetween(1L, 60L);
            assertThat(limited.header("RateLimit-Limit")).contains("3");
            assertThat(limited.header("RateLimit-Remaining")).contains("0");
            assertThat(limited.header("X-Request-Id")).isPresent();
        }
    }

    @Test
    void aRateLimitedSpendSpendsNothing() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures fixtures = new Fixtures(node);
            String accountId = limitedAccount(node, 1);
            Api caller = node.caller(fixtures.key(accountId));

            assertThat(caller.post("/api/tokens/spend/100").status()).isEqualTo(201);
            assertThat(caller.post("/api/tokens/spend/100").status()).isEqualTo(429);

            Reply account = node.admin().get("/admin/accounts/" + accountId);
            assertThat(account.json().get("balance").asLong()).isEqualTo(900);
        }
    }

    @Test
    void eachKeyHasItsOwnAllowanceAndUnlimitedPlansCarryNoHeaders() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures fixtures = new Fixtures(node);
            String accountId = limitedAccount(node, 1);
            Api first = node.caller(fixtures.key(accountId));
            Api second = node.caller(fixtures.key(accountId));
            Api unlimited = node.caller(fixtures.caller(1000).key());

            assertThat(first.get("/api/tokens/balance").status()).isEqualTo(200);
            assertThat(first.get("/api/tokens/balance").status()).isEqualTo(429);
            assertThat(second.get("/api/tokens/balance").status()).isEqualTo(200);
            for (int i = 0; i < 5; i++) {
                Reply reply = unlimited.get("/api/tokens/balance");
                assertThat(reply.status()).isEqualTo(200);
                assertThat(reply.header("RateLimit-Limit")).isEmpty();
            }
        }
    }

    @Test
    void operatorAndHealthEndpointsAreNotLimitedAndBadKeysStill401() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api caller = node.caller(limitedKey(node, 1));
            caller.get("/api/tokens/balance");
            assertThat(caller.get("/api/tokens/balance").status()).isEqualTo(429);

            assertThat(caller.get("/admin/plans").code()).isEqualTo("forbidden");
            assertThat(caller.get("/health/live").status()).isEqualTo(200);
            assertThat(node.caller("pl_not_a_real_key")
                            .get("/api/tokens/balance")
                            .code())
                    .isEqualTo("invalid_api_key");
            assertThat(node.admin().get("/admin/plans").status()).isEqualTo(200);
        }
    }

    @Test
    void aChangedPlanLimitAppliesWithinTheCacheLifetime() throws InterruptedException {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api caller = node.caller(limitedKey(node, 1));
            caller.get("/api/tokens/balance");
            assertThat(caller.get("/api/tokens/balance").status()).isEqualTo(429);

            Reply raised = node.admin().put("/admin/plans/tiny", Map.of("name", "Tiny", "rateLimitPerMinute", 50));
            assertThat(raised.status()).as(raised.toString()).isEqualTo(200);

            Reply reply = caller.get("/api/tokens/balance");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (reply.status() == 429 && System.nanoTime() < deadline) {
                Thread.sleep(200);
                reply = caller.get("/api/tokens/balance");
            }
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("RateLimit-Limit")).contains("50");
        }
    }

    /** Buckets live in each node's memory: with two nodes a key gets each node's allowance. */
    @Test
    void limitsAreCountedPerNode() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (TestNode first = TestNode.start(url);
                TestNode second = TestNode.start(url)) {
            String key = limitedKey(first, 2);

            for (TestNode node : new TestNode[] {first, second}) {
                Api caller = node.caller(key);
                assertThat(caller.get("/api/tokens/balance").status()).isEqualTo(200);
                assertThat(caller.get("/api/tokens/balance").status()).isEqualTo(200);
                assertThat(caller.get("/api/tokens/balance").status()).isEqualTo(429);
            }
        }
    }

    /** An account with 1000 tokens on a new plan "tiny" allowing {@code perMinute} requests a minute. */
    private static String limitedAccount(TestNode node, long perMinute) {
        Fixtures fixtures = new Fixtures(node);
        fixtures.rateLimitedPlan("tiny", perMinute);
        return fixtures.account("tiny", 1000);
    }

    private static String limitedKey(TestNode node, long perMinute) {
        return new Fixtures(node).key(limitedAccount(node, perMinute));
    }
}
