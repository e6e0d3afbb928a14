package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §6.3 with §8: the packaged node, its clock running a minute per second so that reservations
 * expire all through a load of reserves, settles, releases, spends and partial reverts, killed with
 * SIGKILL and started again, has everything it acknowledged, holds no token without a live reservation,
 * and releases the holds whose expiry passed.
 */
class ReservationCrashIT {
    private static final int THREADS = 8;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 200;
    private static final long RATE = 60;
    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final String RESERVATIONS = "/api/tokens/reservations";

    /** What the dead node acknowledged: the reply a caller got, by spending or reservation id. */
    private record Acknowledged(String key, String status, long amount) {}

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void aKillUnderReservationLoadLosesNothingAndLeavesNoOrphanHold(TestStore store) throws Exception {
        String url = store.newDatabaseUrl();
        long realStart = System.currentTimeMillis();
        Map<String, Acknowledged> spendings = new ConcurrentHashMap<>();
        Map<String, Acknowledged> reservations = new ConcurrentHashMap<>();
        List<String> keys = new ArrayList<>();
        try (JarNode node = JarNode.startWithFastClock(url, START, realStart, RATE)) {
            Fixtures fixtures = new Fixtures(node.admin());
            for (int i = 0; i < 4; i++) {
                keys.add(fixtures.caller(1_000_000).key());
            }
            AtomicBoolean stop = new AtomicBoolean();
            List<CompletableFuture<Object>> load = Simultaneously.start(THREADS, thread -> {
                Random random = new Random(thread);
                String key = keys.get(thread % keys.size());
                Api caller = new Api(node.baseUrl(), key);
                List<String> mine = new ArrayList<>();
                List<String> spent = new ArrayList<>();
                try {
                    for (int step = 0; !stop.get(); step++) {
                        step(caller, key, random, thread + "-" + step, mine, spent, spendings, reservations);
                    }
                } catch (RuntimeException e) {
                    return null; // the node is gone
                }
                return null;
            });
            Waiting.within(
                    Duration.ofSeconds(60),
                    () -> spendings.size() + reservations.size() >= ACKNOWLEDGED_BEFORE_KILL
                            || load.stream().anyMatch(CompletableFuture::isDone));
            node.kill();
            stop.set(true);
            CompletableFuture.allOf(load.toArray(CompletableFuture[]::new)).join();
        }
        assertThat(spendings.size() + reservations.size()).isGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_KILL);

        try (JarNode restarted = JarNode.startWithFastClock(url, START, realStart, RATE)) {
            spendings.forEach((id, acknowledged) -> {
                Reply spending = new Api(restarted.baseUrl(), acknowledged.key()).get("/api/tokens/spendings/" + id);
                assertThat(spending.status()).as(id).isEqualTo(200);
                assertThat(spending.json().get("amount").asLong()).isEqualTo(acknowledged.amount());
            });
            reservations.forEach((id, acknowledged) -> {
                Reply reservation = new Api(restarted.baseUrl(), acknowledged.key()).get(RESERVATIONS + "/" + id);
                assertThat(reservation.status()).as(id).isEqualTo(200);
                if (!acknowledged.status().equals("held")) {
                    assertThat(reservation.json().get("status").asText()).as(id).isEqualTo(acknowledged.status());
                }
            });
            // Every hold expires within ten minutes of node time, ten seconds here.
            for (String key : keys) {
                Api caller = new Api(restarted.baseUrl(), key);
                Waiting.until(
                        "every hold of " + key + " has ended",
                        () -> caller.get("/api/tokens/balance")
                                        .json()
                                        .get("held")
                                        .asLong()
                                == 0);
            }
            reservations.forEach((id, acknowledged) -> assertThat(new Api(restarted.baseUrl(), acknowledged.key())
                            .get(RESERVATIONS + "/" + id)
                            .json()
                            .get("status")
                            .asText())
                    .as(id)
                    .isIn("settled", "released", "expired"));
        }
        assertThat(LedgerAudit.mismatches(url)).isEmpty();
    }

    private static void step(
            Api caller,
            String key,
            Random random,
            String tag,
            List<String> mine,
            List<String> spent,
            Map<String, Acknowledged> spendings,
            Map<String, Acknowledged> reservations) {
        int pick = random.nextInt(10);
        if (pick < 4 || mine.isEmpty()) {
            long amount = 1L + random.nextInt(500);
            Reply reply =
                    caller.post(RESERVATIONS, Map.of("amount", amount, "expiresInSeconds", 60 + random.nextInt(540)));
            if (reply.status() == 201) {
                String id = reply.json().get("reservationId").asText();
                mine.add(id);
                reservations.put(id, new Acknowledged(key, "held", amount));
            }
        } else if (pick < 6) {
            String id = mine.get(random.nextInt(mine.size()));
            Reply reply = caller.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", random.nextInt(300)));
            if (reply.status() == 200) {
                JsonNode body = reply.json();
                reservations.put(
                        id,
                        new Acknowledged(
                                key, "settled", body.get("settledAmount").asLong()));
                if (body.hasNonNull("spendingId")) {
                    spent.add(body.get("spendingId").asText());
                    spendings.put(
                            body.get("spendingId").asText(),
                            new Acknowledged(
                                    key, "active", body.get("settledAmount").asLong()));
                }
            }
        } else if (pick < 7) {
            String id = mine.get(random.nextInt(mine.size()));
            if (caller.post(RESERVATIONS + "/" + id + "/release").status() == 200) {
                reservations.put(id, new Acknowledged(key, "released", 0));
            }
        } else if (pick < 9 || spent.isEmpty()) {
            long amount = 1L + random.nextInt(100);
            Reply reply = caller.post("/api/tokens/spend/" + amount);
            if (reply.status() == 201) {
                String id = reply.json().get("spendingId").asText();
                spent.add(id);
                spendings.put(id, new Acknowledged(key, "active", amount));
            }
        } else {
            String id = spent.get(random.nextInt(spent.size()));
            caller.send(
                    "POST",
                    "/api/tokens/spendings/" + id + "/revert",
                    Map.of("amount", 1),
                    Map.of("Idempotency-Key", tag));
        }
    }
}
