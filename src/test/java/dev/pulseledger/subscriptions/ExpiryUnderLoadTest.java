package dev.pulseledger.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §6 and §7's grant invariants under 64 threads of spends, reverts, expiring credits and reads
 * while the node's clock runs through credit expiries and period ends, checked afterwards by verify.
 */
class ExpiryUnderLoadTest {
    private static final int THREADS = 64;
    private static final int OPERATIONS_PER_THREAD = 25;
    private static final Instant START = Instant.parse("2026-03-01T00:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void spendsRevertsAndCreditsAroundExpiriesKeepEveryInvariant(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            Reply plan = admin.post(
                    "/admin/plans",
                    Map.of("id", "daily", "name", "Daily", "allowance", 400, "period", "day", "rollover", 100));
            assertThat(plan.status()).isEqualTo(201);
            Fixtures fixtures = new Fixtures(node);
            List<String> accounts = List.of(fixtures.account("daily", 300), fixtures.account("daily", 300));
            List<String> keys = accounts.stream().map(fixtures::key).toList();
            List<List<String>> spendings = List.of(new CopyOnWriteArrayList<>(), new CopyOnWriteArrayList<>());
            ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

            Simultaneously.run(THREADS, thread -> {
                Random random = new Random(thread);
                for (int step = 0; step < OPERATIONS_PER_THREAD; step++) {
                    int which = random.nextInt(2);
                    Api caller = node.caller(keys.get(which));
                    Reply reply = switch (random.nextInt(10)) {
                        case 0, 1, 2, 3 -> spend(caller, 1 + random.nextInt(60), spendings.get(which));
                        case 4, 5 -> revert(caller, spendings.get(which), random);
                        case 6 ->
                            admin.post(
                                    "/admin/accounts/" + accounts.get(which) + "/credits",
                                    Map.of(
                                            "amount",
                                            1 + random.nextInt(100),
                                            "expiresAt",
                                            clock.instant()
                                                    .plus(Duration.ofMinutes(30 + random.nextInt(240)))
                                                    .toString()));
                        case 7 -> {
                            clock.advance(Duration.ofMinutes(20));
                            yield caller.get("/api/tokens/balance");
                        }
                        default -> caller.get("/api/tokens/balance");
                    };
                    // A credit whose expiry the clock passed before it was decided is refused: a 400.
                    if (reply.status() >= 500) {
                        unexpected.add(reply.toString());
                    }
                }
                return null;
            });

            assertThat(unexpected).isEmpty();
            assertThat(clock.instant()).isAfter(START.plus(Duration.ofDays(1)));
            for (int i = 0; i < 2; i++) {
                for (String spendingId : spendings.get(i)) {
                    assertThat(node.caller(keys.get(i))
                                    .get("/api/tokens/spendings/" + spendingId)
                                    .status())
                            .isEqualTo(200);
                }
            }
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    private static Reply spend(Api caller, int amount, List<String> spendings) {
        Reply reply = caller.post("/api/tokens/spend/" + amount);
        if (reply.status() == 201) {
            spendings.add(reply.json().get("spendingId").asText());
        }
        return reply;
    }

    private static Reply revert(Api caller, List<String> spendings, Random random) {
        List<String> known = new ArrayList<>(spendings);
        if (known.isEmpty()) {
            return caller.get("/api/tokens/balance");
        }
        return caller.post("/api/tokens/spendings/" + known.get(random.nextInt(known.size())) + "/revert");
    }
}
