package dev.pulseledger.pools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §14 with §6 across nodes: 64 threads over three nodes on one PostgreSQL database spend, revert,
 * hold and settle in three pools of two accounts at once. No pool goes negative, each pool's balance is its
 * opening less what the 201s took plus what the reverts gave back, and verify finds nothing.
 */
class PoolsConcurrencyTest {
    private static final int NODES = 3;
    private static final int THREADS = 64;
    private static final int OPERATIONS_PER_THREAD = 15;
    private static final List<String> POOLS = List.of("default", "images", "embeddings");
    private static final Map<String, Long> OPENING = Map.of("default", 1500L, "images", 1000L, "embeddings", 800L);

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void noPoolGoesNegativeAndEachPoolAddsUpAcrossThreeNodes() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                nodes.add(TestNode.start(url));
            }
            Fixtures fixtures = new Fixtures(nodes.getFirst());
            List<Fixtures.Caller> callers = List.of(opened(fixtures, nodes), opened(fixtures, nodes));
            Map<String, AtomicLong> taken = new ConcurrentHashMap<>();

            Simultaneously.run(THREADS, thread -> {
                SplittableRandom random = new SplittableRandom(thread);
                Fixtures.Caller caller = callers.get(thread % callers.size());
                Api api = nodes.get(thread % NODES).caller(caller.key());
                for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
                    String pool = POOLS.get(random.nextInt(POOLS.size()));
                    AtomicLong net = taken.computeIfAbsent(caller.accountId() + "/" + pool, k -> new AtomicLong());
                    long amount = 1L + random.nextInt(60);
                    if (random.nextInt(5) == 0) {
                        holdAndSettle(api, pool, amount, net);
                        continue;
                    }
                    Reply spent = api.post("/api/tokens/spend/" + amount + "?pool=" + pool);
                    assertThat(spent.status()).as(spent.toString()).isIn(201, 402);
                    if (spent.status() == 201) {
                        assertThat(spent.json().path("balance").asLong()).isNotNegative();
                        net.addAndGet(amount);
                        if (random.nextInt(4) == 0) {
                            String id = spent.json().path("spendingId").asText();
                            Reply reverted = api.post("/api/tokens/spendings/" + id + "/revert");
                            assertThat(reverted.status())
                                    .as(reverted.toString())
                                    .isEqualTo(200);
                            net.addAndGet(-amount);
                        }
                    }
                }
                return null;
            });

            for (Fixtures.Caller caller : callers) {
                JsonNode balance = nodes.get(1)
                        .caller(caller.key())
                        .get("/api/tokens/balance")
                        .json();
                for (String pool : POOLS) {
                    long now = poolBalance(balance, pool);
                    long net = taken.getOrDefault(caller.accountId() + "/" + pool, new AtomicLong())
                            .get();
                    assertThat(now).as(pool).isNotNegative().isEqualTo(OPENING.get(pool) - net);
                }
            }
            assertThat(taken.values().stream().mapToLong(AtomicLong::get).sum()).isPositive();
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    /** A pool's balance in the plain balance view: {@code default}'s is its {@code balance}. */
    static long poolBalance(JsonNode balance, String pool) {
        return pool.equals("default")
                ? balance.path("balance").asLong()
                : balance.at("/pools/" + pool + "/balance").asLong();
    }

    /** A hold of twice the cost in the pool, settled for the cost: the rest returns. */
    private static void holdAndSettle(Api api, String pool, long amount, AtomicLong net) {
        Reply held = api.post("/api/tokens/reservations", Map.of("amount", 2 * amount, "pool", pool));
        assertThat(held.status()).as(held.toString()).isIn(201, 402);
        if (held.status() == 201) {
            String id = held.json().path("reservationId").asText();
            Reply settled = api.post("/api/tokens/reservations/" + id + "/settle", Map.of("amount", amount));
            assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
            net.addAndGet(amount);
        }
    }

    private static Fixtures.Caller opened(Fixtures fixtures, List<TestNode> nodes) {
        Fixtures.Caller caller = fixtures.caller(OPENING.get("default"));
        for (String pool : List.of("images", "embeddings")) {
            Reply credited = nodes.getFirst()
                    .admin()
                    .post(
                            "/admin/accounts/" + caller.accountId() + "/credits",
                            Map.of("amount", OPENING.get(pool), "pool", pool));
            assertThat(credited.status()).as(credited.toString()).isEqualTo(201);
        }
        return caller;
    }
}
