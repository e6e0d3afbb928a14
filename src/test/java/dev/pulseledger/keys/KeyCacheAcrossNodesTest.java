package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.NodeMetrics;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Two nodes on one PostgreSQL database: keys are cached until they change, every change made on one
 * node shows on the other within the contract's 5 seconds, and keys that exist nowhere are refused
 * without a database round trip.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KeyCacheAcrossNodesTest {
    private static final Duration CONTRACT_LIMIT = Duration.ofSeconds(5);

    private TestNode first;
    private TestNode second;
    private Fixtures fixtures;

    @BeforeAll
    void startNodes() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        first = TestNode.start(url);
        second = TestNode.start(url);
        fixtures = new Fixtures(first);
    }

    @AfterAll
    void stopNodes() {
        first.close();
        second.close();
    }

    @Test
    void aKeyCreatedOnOneNodeWorksOnTheOtherAtOnce() {
        Fixtures.Caller caller = fixtures.caller(100);

        Reply reply = second.caller(caller.key()).get("/api/tokens/balance");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    @Test
    void aRevocationOnOneNodeShowsOnTheOtherWithinFiveSeconds() {
        String accountId = fixtures.account(100);
        Fixtures.IssuedKey key = fixtures.issueKey(accountId);
        Api onSecond = second.caller(key.key());
        assertThat(onSecond.get("/api/tokens/balance").status()).isEqualTo(200);

        long start = System.nanoTime();
        assertThat(first.admin().delete("/admin/keys/" + key.id()).status()).isEqualTo(204);

        Duration took = until(onSecond, r -> r.status() == 401, start);
        System.out.printf("Revocation reached the other node after %d ms%n", took.toMillis());
        assertThat(took).isLessThan(CONTRACT_LIMIT);
    }

    @Test
    void aSuspensionAndAReactivationOnOneNodeShowOnTheOtherWithinFiveSeconds() {
        Fixtures.Caller caller = fixtures.caller(100);
        Api onSecond = second.caller(caller.key());
        assertThat(onSecond.get("/api/tokens/balance").status()).isEqualTo(200);

        long start = System.nanoTime();
        assertThat(status(caller.accountId(), "suspended").status()).isEqualTo(200);
        assertThat(until(onSecond, r -> r.status() == 403, start)).isLessThan(CONTRACT_LIMIT);

        start = System.nanoTime();
        assertThat(status(caller.accountId(), "active").status()).isEqualTo(200);
        assertThat(until(onSecond, r -> r.status() == 200, start)).isLessThan(CONTRACT_LIMIT);
    }

    @Test
    void aPlanLimitEditedOnOneNodeAppliesOnTheOtherWithinFiveSeconds() {
        fixtures.rateLimitedPlan("edited", 1000);
        Api onSecond = second.caller(fixtures.key(fixtures.account("edited", 100)));
        assertThat(onSecond.get("/api/tokens/balance").header("RateLimit-Limit"))
                .contains("1000");

        long start = System.nanoTime();
        Reply edited =
                first.admin().put("/admin/plans/edited", Map.of("name", "Plan edited", "rateLimitPerMinute", 500));
        assertThat(edited.status()).as(edited.toString()).isEqualTo(200);

        Duration took = until(
                onSecond, r -> r.header("RateLimit-Limit").map("500"::equals).orElse(false), start);
        assertThat(took).isLessThan(CONTRACT_LIMIT);
    }

    @Test
    void aKnownKeyIsLookedUpOnceAndThenServedFromMemory() {
        Api caller = second.caller(fixtures.caller(100).key());
        assertThat(caller.get("/api/pulse").status()).isEqualTo(200);
        long before = NodeMetrics.databaseTransactions(second.baseUrl());
        long start = System.nanoTime();

        int requests = 200;
        for (int i = 0; i < requests; i++) {
            assertThat(caller.get("/api/pulse").status()).isEqualTo(200);
        }

        long used = NodeMetrics.databaseTransactions(second.baseUrl()) - before;
        long elapsedMillis = Duration.ofNanos(System.nanoTime() - start).toMillis();
        // The node's own background reads (access feed, status feed, webhooks) run meanwhile; a key
        // lookup per request would add 200.
        long background = 4 * (elapsedMillis / AccessFeed.POLL_INTERVAL.toMillis() + 2);
        assertThat(used)
                .as("database work of %d requests in %d ms", requests, elapsedMillis)
                .isLessThan(Math.min(background, requests / 2));
    }

    private Reply status(String accountId, String status) {
        return first.admin().put("/admin/accounts/" + accountId + "/status", Map.of("status", status));
    }

    private static Duration until(Api api, Predicate<Reply> settled, long startNanos) {
        Waiting.until("the change shows on the other node", () -> settled.test(api.get("/api/tokens/balance")));
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }
}
