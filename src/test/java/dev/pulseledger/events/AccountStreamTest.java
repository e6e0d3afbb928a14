package dev.pulseledger.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SseClient;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §11: {@code GET /api/tokens/stream} sends the caller's own account only, coalesces
 * balance changes to at most one a second, resumes without a gap, and ends when the key is revoked.
 */
class AccountStreamTest {
    private static final String STREAM = "/api/tokens/stream";
    private static final Duration EVENT_WAIT = Duration.ofSeconds(10);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aStreamSeesItsOwnSpendsCoalescedAndNoOneElses(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), "--events-poll-ms", "50")) {
            Fixtures fixtures = new Fixtures(node);
            Fixtures.Caller caller = fixtures.caller(1_000);
            Fixtures.Caller neighbour = fixtures.caller(1_000);
            setThreshold(node, caller.accountId(), 500);
            setThreshold(node, neighbour.accountId(), 500);
            try (SseClient client = stream(node, caller.key(), Optional.empty())) {
                assertThat(client.status()).isEqualTo(200);
                SseClient.Event opening = client.next();
                assertThat(opening.type()).isEqualTo("balance.changed");
                assertThat(opening.data().path("data").path("balance").asLong()).isEqualTo(1_000);

                long started = System.nanoTime();
                for (int i = 0; i < 30; i++) {
                    assertThat(node.caller(caller.key())
                                    .post("/api/tokens/spend/20")
                                    .status())
                            .isEqualTo(201);
                    assertThat(node.caller(neighbour.key())
                                    .post("/api/tokens/spend/20")
                                    .status())
                            .isEqualTo(201);
                }
                List<SseClient.Event> events = new ArrayList<>();
                while (events.stream().noneMatch(AccountStreamTest::showsFinalBalance)) {
                    events.add(
                            client.next(EVENT_WAIT).orElseThrow(() -> new AssertionError("no event; got " + events)));
                }
                long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds();

                List<SseClient.Event> balances = events.stream()
                        .filter(e -> e.type().equals("balance.changed"))
                        .toList();
                assertThat(balances.size()).as("coalesced balance events").isLessThanOrEqualTo((int) seconds + 2);
                assertThat(events)
                        .filteredOn(e -> e.type().equals("balance.low"))
                        .singleElement()
                        .satisfies(low -> assertThat(low.data()
                                        .path("data")
                                        .path("accountId")
                                        .asText())
                                .isEqualTo(caller.accountId()));
                assertThat(events)
                        .allSatisfy(e -> assertThat(e.data().toString()).doesNotContain(neighbour.accountId()));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aReconnectingClientResumesWithoutAGap(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), "--events-poll-ms", "50")) {
            Fixtures.Caller caller = new Fixtures(node).caller(1_000);
            setThreshold(node, caller.accountId(), 800);
            String lastSeen;
            try (SseClient client = stream(node, caller.key(), Optional.empty())) {
                lastSeen = client.next().id();
            }
            // While the client is away: a spend that crosses the threshold, then more spends.
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/300").status())
                    .isEqualTo(201);
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/100").status())
                    .isEqualTo(201);
            try (SseClient client = stream(node, caller.key(), Optional.of(lastSeen))) {
                SseClient.Event missedLow = client.next();
                assertThat(missedLow.type()).isEqualTo("balance.low");
                assertThat(missedLow.data().path("data").path("balance").asLong())
                        .isEqualTo(700);
                SseClient.Event latest = client.next();
                assertThat(latest.type()).isEqualTo("balance.changed");
                assertThat(latest.data().path("data").path("balance").asLong()).isEqualTo(600);
                assertThat(client.next(Duration.ofMillis(1_500)))
                        .as("nothing is sent twice")
                        .isEmpty();
                lastSeen = latest.id();
            }
            try (SseClient client = stream(node, caller.key(), Optional.of(lastSeen))) {
                assertThat(client.next(Duration.ofMillis(1_500)))
                        .as("a client that is up to date gets nothing again")
                        .isEmpty();
                assertThat(node.caller(caller.key()).post("/api/tokens/spend/1").status())
                        .isEqualTo(201);
                assertThat(client.next().data().path("data").path("balance").asLong())
                        .isEqualTo(599);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void revokingTheKeyEndsTheStreamWithinFiveSeconds(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.IssuedKey key = new Fixtures(node).issueKey(new Fixtures(node).account(10));
            try (SseClient client = stream(node, key.key(), Optional.empty())) {
                assertThat(client.next().type()).isEqualTo("balance.changed");
                assertThat(node.admin().delete("/admin/keys/" + key.id()).status())
                        .isEqualTo(204);
                long revoked = System.nanoTime();
                assertThat(client.ended(Duration.ofSeconds(10))).isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - revoked)).isLessThan(Duration.ofSeconds(5));
            }
        }
    }

    @org.junit.jupiter.api.Test
    void streamsOfBothKindsShareTheKeysLimitAndNeedACallerKey() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.anonymous().get(STREAM).code()).isEqualTo("missing_api_key");
            assertThat(node.admin().get(STREAM).code()).isEqualTo("forbidden");
            String key = new Fixtures(node).caller(0).key();
            Reply badId = node.caller(key).send("GET", STREAM, null, Map.of("Last-Event-ID", "12"));
            assertThat(badId.code()).isEqualTo("invalid_last_event_id");
            List<SseClient> open = new ArrayList<>();
            try {
                open.add(stream(node, key, Optional.empty()));
                open.add(stream(node, key, Optional.empty()));
                open.add(SseClient.connect(node.baseUrl() + "/api/pulse/stream", key, Optional.empty()));
                assertThat(open)
                        .allSatisfy(client -> assertThat(client.status()).isEqualTo(200));
                try (SseClient fourth = stream(node, key, Optional.empty())) {
                    assertThat(fourth.status()).isEqualTo(429);
                    assertThat(fourth.header("Retry-After")).isPresent();
                }
            } finally {
                open.forEach(SseClient::close);
            }
        }
    }

    private static boolean showsFinalBalance(SseClient.Event event) {
        return event.type().equals("balance.changed")
                && event.data().path("data").path("balance").asLong() == 400;
    }

    private static void setThreshold(TestNode node, String accountId, long threshold) {
        Reply reply = node.admin()
                .put(
                        "/admin/accounts/" + accountId + "/low-balance-threshold",
                        Map.of("lowBalanceThreshold", threshold));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    private static SseClient stream(TestNode node, String key, Optional<String> lastEventId) {
        return SseClient.connect(node.baseUrl() + STREAM, key, lastEventId);
    }
}
