package dev.pulseledger.reservations;

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
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** CONTRACT §6 and §8 under concurrency: settles that race each other, the sweep, and other nodes. */
class ReservationConcurrencyTest {
    private static final Instant START = Instant.parse("2026-05-01T10:00:00Z");
    private static final String RESERVATIONS = "/api/tokens/reservations";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void fiftyConcurrentSettlesMakeOneSpendingAndTheOthersGetTheFirstBodyOr409(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Api api = node.caller(caller.key());
            String id = ReservationsTest.reserve(api, 5000);

            List<Reply> replies = Simultaneously.run(
                    50, i -> api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 1000 + (i % 5) * 100)));

            List<Reply> settled =
                    replies.stream().filter(r -> r.status() == 200).toList();
            assertThat(settled).isNotEmpty();
            assertThat(settled)
                    .extracting(Reply::json)
                    .containsOnly(settled.getFirst().json());
            long amount = settled.getFirst().json().get("settledAmount").asLong();
            assertThat(replies.stream().filter(r -> r.status() != 200))
                    .allSatisfy(r -> assertThat(r.code()).isEqualTo("reservation_already_settled"));
            assertThat(replies.stream().filter(r -> r.status() == 409)).hasSize(50 - settled.size());
            assertThat(api.get("/api/tokens/spendings").json().get("data")).hasSize(1);
            JsonNode balance = api.get("/api/tokens/balance").json();
            assertThat(balance.get("balance").asLong()).isEqualTo(10_000 - amount);
            assertThat(balance.get("held").asLong()).isZero();
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /**
     * Reservations reach their expiry while three nodes race to settle them and every node's sweep runs:
     * each ends exactly once, settled or expired, and an expired one raises one event.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void aReservationExpiringWhileThreeNodesSettleItEndsExactlyOnce(TestStore store) {
        String url = store.newDatabaseUrl();
        TestClock clock = new TestClock(START);
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(TestNode.start(url, clock));
            }
            Fixtures fixtures = new Fixtures(nodes.getFirst());
            List<String> keys = new ArrayList<>();
            List<String> ids = new ArrayList<>();
            for (int a = 0; a < 4; a++) {
                String key = fixtures.caller(1000).key();
                for (int r = 0; r < 5; r++) {
                    keys.add(key);
                    Reply reserved = nodes.getFirst()
                            .caller(key)
                            .post(RESERVATIONS, Map.of("amount", 100, "expiresInSeconds", 10));
                    assertThat(reserved.status()).isEqualTo(201);
                    ids.add(reserved.json().get("reservationId").asText());
                }
            }
            clock.advance(Duration.ofSeconds(9));
            ConcurrentLinkedQueue<Reply> replies = new ConcurrentLinkedQueue<>();

            Simultaneously.run(3 * ids.size() + 1, task -> {
                if (task == 3 * ids.size()) {
                    clock.advance(Duration.ofSeconds(1)); // the reservations' expiry, in the middle of the race
                    return null;
                }
                int which = task % ids.size();
                TestNode node = nodes.get(task / ids.size());
                for (int attempt = 0; attempt < 3; attempt++) {
                    replies.add(node.caller(keys.get(which))
                            .post(RESERVATIONS + "/" + ids.get(which) + "/settle", Map.of("amount", 40)));
                }
                return null;
            });
            Waiting.until(
                    "every reservation has ended",
                    () -> ids.stream()
                            .noneMatch(id -> status(nodes.get(2), keys.get(ids.indexOf(id)), id)
                                    .equals("held")));

            assertThat(replies)
                    .allSatisfy(r -> assertThat(r.status()).as(r.toString()).isIn(200, 409));
            int expired = 0;
            for (int i = 0; i < ids.size(); i++) {
                String status = status(nodes.get(1), keys.get(i), ids.get(i));
                assertThat(status).isIn("settled", "expired");
                String id = ids.get(i);
                List<Reply> settles = replies.stream()
                        .filter(r -> r.status() == 200
                                && r.json().get("reservationId").asText().equals(id))
                        .toList();
                if (status.equals("expired")) {
                    expired++;
                    assertThat(settles).isEmpty();
                } else {
                    assertThat(settles)
                            .extracting(Reply::json)
                            .containsOnly(settles.getFirst().json());
                }
            }
            int expiredReservations = expired;
            Waiting.until(
                    "one reservation.expired per expired reservation",
                    () -> ReservationsTest.countEvents(nodes.getFirst(), "reservation.expired") >= expiredReservations);
            assertThat(ReservationsTest.countEvents(nodes.getFirst(), "reservation.expired"))
                    .isEqualTo(expired);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    /**
     * 64 threads reserve, settle, release, spend and revert (wholly and in part) on one account while the
     * clock moves through reservation expiries: every §6 and §8 invariant holds, and verify agrees.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void sixtyFourThreadsMixingEveryChangeKeepEveryInvariant(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(20_000);
            Api api = node.caller(caller.key());
            List<String> reservations = new CopyOnWriteArrayList<>();
            List<String> spendings = new CopyOnWriteArrayList<>();
            ConcurrentLinkedQueue<String> unexpected = new ConcurrentLinkedQueue<>();

            Simultaneously.run(64, thread -> {
                Random random = new Random(thread);
                for (int step = 0; step < 20; step++) {
                    Reply reply = mixedStep(api, clock, random, thread + "-" + step, reservations, spendings);
                    if (reply.status() >= 500 || reply.status() == 400 || reply.status() == 404) {
                        unexpected.add(reply.toString());
                    }
                }
                return null;
            });

            assertThat(unexpected).isEmpty();
            Waiting.until(
                    "the sweep has expired every due reservation",
                    () -> dueHeld(api, clock).isEmpty());
            long held = api.get("/api/tokens/balance").json().get("held").asLong();
            assertThat(held).isEqualTo(heldByList(node, caller.accountId()));
            for (String spendingId : spendings) {
                assertThat(api.get("/api/tokens/spendings/" + spendingId).status())
                        .isEqualTo(200);
            }
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();

            clock.advance(Duration.ofMinutes(10));
            Waiting.until(
                    "every reservation has expired",
                    () -> api.get("/api/tokens/balance").json().get("held").asLong() == 0);
            assertThat(api.get("/api/tokens/balance").json().get("balance").asLong())
                    .isEqualTo(ledgerSum(node, caller.accountId()));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /** One random change; refusals that the mix provokes on purpose (402, 409, 422) are expected. */
    static Reply mixedStep(
            Api api, TestClock clock, Random random, String tag, List<String> reservations, List<String> spendings) {
        int pick = random.nextInt(20);
        if (pick < 6 || reservations.isEmpty()) {
            Reply reply = api.post(
                    RESERVATIONS, Map.of("amount", 1 + random.nextInt(200), "expiresInSeconds", 1 + random.nextInt(5)));
            if (reply.status() == 201) {
                reservations.add(reply.json().get("reservationId").asText());
            }
            return reply;
        }
        String reservation = reservations.get(random.nextInt(reservations.size()));
        if (pick < 10) {
            Reply reply = api.post(RESERVATIONS + "/" + reservation + "/settle", Map.of("amount", random.nextInt(150)));
            if (reply.status() == 200 && reply.json().hasNonNull("spendingId")) {
                spendings.add(reply.json().get("spendingId").asText());
            }
            return reply;
        }
        if (pick < 12) {
            return api.post(RESERVATIONS + "/" + reservation + "/release");
        }
        if (pick < 15) {
            Reply reply = api.post("/api/tokens/spend/" + (1 + random.nextInt(100)));
            if (reply.status() == 201) {
                spendings.add(reply.json().get("spendingId").asText());
            }
            return reply;
        }
        if (pick < 19 && !spendings.isEmpty()) {
            String revert = "/api/tokens/spendings/" + spendings.get(random.nextInt(spendings.size())) + "/revert";
            return random.nextBoolean()
                    ? api.send("POST", revert, Map.of("amount", 1 + random.nextInt(40)), Map.of("Idempotency-Key", tag))
                    : api.post(revert);
        }
        clock.advance(Duration.ofSeconds(1));
        return api.get("/api/tokens/balance");
    }

    private static String status(TestNode node, String key, String id) {
        return node.caller(key)
                .get(RESERVATIONS + "/" + id)
                .json()
                .get("status")
                .asText();
    }

    /** Held reservations whose expiry has come, read without waking the ledger. */
    private static List<String> dueHeld(Api api, TestClock clock) {
        Set<String> due = new HashSet<>();
        for (JsonNode r : allReservations(api::get, RESERVATIONS + "?status=held&limit=100")) {
            if (!Instant.parse(r.get("expiresAt").asText()).isAfter(clock.instant())) {
                due.add(r.get("reservationId").asText());
            }
        }
        return List.copyOf(due);
    }

    private static long heldByList(TestNode node, String accountId) {
        return allReservations(
                        node.admin()::get, "/admin/accounts/" + accountId + "/reservations?status=held&limit=100")
                .stream()
                .mapToLong(r -> r.get("amount").asLong())
                .sum();
    }

    private static List<JsonNode> allReservations(java.util.function.Function<String, Reply> get, String first) {
        List<JsonNode> all = new ArrayList<>();
        String path = first;
        while (true) {
            JsonNode page = get.apply(path).json();
            page.get("data").forEach(all::add);
            if (page.get("nextCursor").isNull()) {
                return all;
            }
            path = first + "&cursor=" + page.get("nextCursor").asText();
        }
    }

    private static long ledgerSum(TestNode node, String accountId) {
        long sum = 0;
        String first = "/admin/accounts/" + accountId + "/ledger?limit=100";
        String path = first;
        while (true) {
            JsonNode page = node.admin().get(path).json();
            for (JsonNode line : page.get("data")) {
                sum += line.get("amount").asLong();
            }
            if (page.get("nextCursor").isNull()) {
                return sum;
            }
            path = first + "&cursor=" + page.get("nextCursor").asText();
        }
    }
}
