package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TcpProxy;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL goes away under traffic (a relay between node and server cuts every connection and
 * refuses new ones), then comes back: the node must answer fast 503s meanwhile, recover by itself,
 * and keep every invariant.
 */
class DatabaseOutageTest {
    private static final long OPENING_BALANCE = 1_000_000;
    private static final int AMOUNT = 7;
    /** Far above the 500 ms connection timeout the node runs with, far below a hang. */
    private static final Duration FAST = Duration.ofSeconds(5);

    @Test
    void duringAnOutageRequestsFailFastWith503AndAfterItTheNodeRecoversWithNothingHalfApplied() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (TcpProxy proxy = TcpProxy.inFrontOf(url);
                TestNode node = TestNode.start(
                        proxy.proxied(url), "--db-connection-timeout-ms", "500", "--db-statement-timeout-ms", "2000");
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Fixtures.Caller caller = new Fixtures(node).caller(OPENING_BALANCE);
            Api api = node.caller(caller.key());
            Map<String, Integer> statusByKey = new ConcurrentHashMap<>();
            AtomicBoolean spending = new AtomicBoolean(true);
            Future<?> spender = threads.submit(() -> {
                for (int i = 0; spending.get(); i++) {
                    String key = "outage-" + i;
                    statusByKey.put(key, spend(api, key).status());
                }
            });
            Thread.sleep(500);

            proxy.cut();
            for (int i = 0; i < 10; i++) {
                assertFast503(api, "/api/tokens/balance");
                assertFast503(api, "/api/tokens/spendings");
                Thread.sleep(200);
            }
            assertThat(node.anonymous().get("/health/ready").status()).isEqualTo(503);

            proxy.restore();
            awaitReady(node);
            spending.set(false);
            spender.get();

            assertThat(statusByKey.values()).allMatch(status -> status == 201 || status == 503);
            assertThat(statusByKey.values()).contains(201, 503);
            long spent = 0;
            for (String key : statusByKey.keySet()) {
                Reply retried = spend(api, key);
                assertThat(retried.status()).as(key + ": " + retried).isEqualTo(201);
                spent += AMOUNT;
            }
            long balance = api.get("/api/tokens/balance").json().get("balance").asLong();
            assertThat(balance).isEqualTo(OPENING_BALANCE - spent);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    private static Reply spend(Api api, String idempotencyKey) {
        return api.send("POST", "/api/tokens/spend/" + AMOUNT, null, Map.of("Idempotency-Key", idempotencyKey));
    }

    private static void assertFast503(Api api, String path) {
        long start = System.nanoTime();
        Reply reply = api.get(path);
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
        assertThat(reply.code()).isEqualTo("database_unavailable");
        assertThat(reply.header("Retry-After")).isPresent();
        assertThat(took).isLessThan(FAST);
    }

    private static void awaitReady(TestNode node) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (node.anonymous().get("/health/ready").status() != 200) {
            assertThat(System.nanoTime()).as("node ready again within 30 s").isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
