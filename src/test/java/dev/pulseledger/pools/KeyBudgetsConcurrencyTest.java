package dev.pulseledger.pools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §14's key budgets with §6 across nodes: 64 threads over three nodes on one PostgreSQL database
 * (one node on a SQLite file)
 * spend, revert, hold and settle with six keys of two accounts, four of them with budgets on several pools,
 * in three pools at once. No pool goes negative and each adds up, no key's use of a budget's pool goes above
 * the budget, what each key used is exactly what its 201s took less what its reverts gave back, and verify
 * (which checks every key's windows) finds nothing.
 */
class KeyBudgetsConcurrencyTest {
    private static final int NODES = 3;
    private static final int THREADS = 64;
    private static final int OPERATIONS_PER_THREAD = 15;
    private static final Instant NOW = Instant.parse("2026-05-06T12:00:00Z");
    private static final List<String> POOLS = List.of("default", "images", "embeddings");
    private static final Map<String, Long> OPENING = Map.of("default", 3000L, "images", 2000L, "embeddings", 2000L);
    /** Each account's keys: two with budgets, one without. */
    private static final List<List<Map<String, Object>>> KEY_BUDGETS = List.of(
            List.of(KeyBudgetsTest.budget("default", "day", 300), KeyBudgetsTest.budget("images", "week", 200)),
            List.of(
                    KeyBudgetsTest.budget("embeddings", "month", 250),
                    KeyBudgetsTest.budget("default", "week", 400),
                    KeyBudgetsTest.budget("default", "day", 350)),
            List.of());

    /** A key as the test uses it, and what its 201s took, net, per pool. */
    private record Key(String accountId, String id, List<Api> onNodes, Map<String, AtomicLong> net) {}

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void noKeyGoesAboveItsBudgetAndEveryPoolAddsUp(TestStore store) {
        String url = store.newDatabaseUrl();
        TestClock clock = new TestClock(NOW);
        List<TestNode> nodes = new ArrayList<>();
        int nodeCount = store == TestStore.POSTGRESQL ? NODES : 1;
        try {
            for (int i = 0; i < nodeCount; i++) {
                nodes.add(TestNode.start(url, clock));
            }
            Fixtures fixtures = new Fixtures(nodes.getFirst());
            List<Key> keys = new ArrayList<>();
            Map<String, AtomicLong> accountNet = new ConcurrentHashMap<>();
            for (int a = 0; a < 2; a++) {
                String accountId = fixtures.account(OPENING.get("default"));
                PoolsTest.credit(nodes.getFirst(), accountId, "images", OPENING.get("images"));
                PoolsTest.credit(nodes.getFirst(), accountId, "embeddings", OPENING.get("embeddings"));
                for (List<Map<String, Object>> budgets : KEY_BUDGETS) {
                    Reply issued = nodes.getFirst()
                            .admin()
                            .post("/admin/accounts/" + accountId + "/keys", Map.of("budgets", budgets));
                    assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
                    List<Api> onNodes = nodes.stream()
                            .map(node -> node.caller(issued.json().path("key").asText()))
                            .toList();
                    keys.add(new Key(accountId, issued.json().path("id").asText(), onNodes, new ConcurrentHashMap<>()));
                }
            }
            AtomicLong refusedByBudget = new AtomicLong();

            Simultaneously.run(THREADS, thread -> {
                SplittableRandom random = new SplittableRandom(thread);
                Key key = keys.get(thread % keys.size());
                Api api = key.onNodes().get(thread % nodeCount);
                for (int i = 0; i < OPERATIONS_PER_THREAD; i++) {
                    String pool = POOLS.get(random.nextInt(POOLS.size()));
                    long amount = 1L + random.nextInt(40);
                    long took = random.nextInt(5) == 0
                            ? holdAndSettle(api, pool, amount, refusedByBudget)
                            : spendAndMaybeRevert(api, pool, amount, random.nextInt(4) == 0, refusedByBudget);
                    key.net().computeIfAbsent(pool, p -> new AtomicLong()).addAndGet(took);
                    accountNet
                            .computeIfAbsent(key.accountId() + "/" + pool, p -> new AtomicLong())
                            .addAndGet(took);
                }
                return null;
            });

            for (Key key : keys) {
                JsonNode budgets =
                        key.onNodes().getLast().get("/api/tokens/key").json().path("budgets");
                for (JsonNode budget : budgets) {
                    long net = key.net()
                            .getOrDefault(budget.path("pool").asText(), new AtomicLong())
                            .get();
                    assertThat(budget.path("used").asLong())
                            .as(key.id() + " " + budget)
                            .isEqualTo(net);
                    assertThat(net)
                            .as(key.id() + " " + budget)
                            .isLessThanOrEqualTo(budget.path("tokens").asLong());
                }
            }
            for (String accountId : keys.stream().map(Key::accountId).distinct().toList()) {
                JsonNode balance = keys.stream()
                        .filter(k -> k.accountId().equals(accountId))
                        .findFirst()
                        .orElseThrow()
                        .onNodes()
                        .getLast()
                        .get("/api/tokens/balance")
                        .json();
                for (String pool : POOLS) {
                    long now = PoolsConcurrencyTest.poolBalance(balance, pool);
                    long net = accountNet
                            .getOrDefault(accountId + "/" + pool, new AtomicLong())
                            .get();
                    assertThat(now).as(accountId + " " + pool).isNotNegative().isEqualTo(OPENING.get(pool) - net);
                }
            }
            assertThat(refusedByBudget.get()).as("budgets were reached").isPositive();
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    /** A spend, reverted at once when {@code revert}; returns what it took, net. */
    private static long spendAndMaybeRevert(
            Api api, String pool, long amount, boolean revert, AtomicLong refusedByBudget) {
        Reply spent = api.post("/api/tokens/spend/" + amount + "?pool=" + pool);
        if (refused(spent, refusedByBudget)) {
            return 0;
        }
        assertThat(spent.json().path("balance").asLong()).isNotNegative();
        if (!revert) {
            return amount;
        }
        Reply reverted = api.post(
                "/api/tokens/spendings/" + spent.json().path("spendingId").asText() + "/revert");
        assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
        return 0;
    }

    /** A hold of twice the cost, settled for the cost: the rest returns; returns what it took. */
    private static long holdAndSettle(Api api, String pool, long amount, AtomicLong refusedByBudget) {
        Reply held = api.post("/api/tokens/reservations", Map.of("amount", 2 * amount, "pool", pool));
        if (refused(held, refusedByBudget)) {
            return 0;
        }
        String id = held.json().path("reservationId").asText();
        Reply settled = api.post("/api/tokens/reservations/" + id + "/settle", Map.of("amount", amount));
        assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
        return amount;
    }

    /** True for a 402 (counting those of a budget); fails on anything but a 201 or a 402. */
    private static boolean refused(Reply reply, AtomicLong refusedByBudget) {
        assertThat(reply.status()).as(reply.toString()).isIn(201, 402);
        if (reply.status() == 201) {
            return false;
        }
        assertThat(reply.code()).isIn("insufficient_balance", "key_budget_exceeded");
        if (reply.code().equals("key_budget_exceeded")) {
            refusedByBudget.incrementAndGet();
        }
        return true;
    }
}
