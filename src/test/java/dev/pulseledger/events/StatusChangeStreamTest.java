package dev.pulseledger.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SseClient;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StatusChangeStreamTest {
    private static final String STREAM = "/api/pulse/stream";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aClientOnOneNodeReceivesEachChangeMadeThroughAnotherNodeExactlyOnce(TestStore store) {
        String url = store.newDatabaseUrl();
        try (TestNode a = TestNode.start(url);
                TestNode b = TestNode.start(url)) {
            putService(a, "api", "operational", true);
            String key = new Fixtures(a).caller(0).key();
            try (SseClient client = stream(b, key, Optional.empty())) {
                assertThat(client.status()).isEqualTo(200);
                assertThat(client.contentType()).startsWith("text/event-stream");

                setStatus(a, "api", "major_outage");
                setStatus(a, "api", "major_outage");
                putService(a, "api", "major_outage", true);
                setStatus(a, "api", "operational");

                SseClient.Event first = client.next();
                SseClient.Event second = client.next();
                assertThat(first.type()).isEqualTo("service.status_changed");
                assertThat(first.data().path("type").asText()).isEqualTo("service.status_changed");
                assertThat(first.data().path("id").asText()).startsWith("evt_");
                assertThat(first.data().path("createdAt").asText()).isNotEmpty();
                assertThat(first.data().path("data").path("serviceId").asText()).isEqualTo("api");
                assertThat(transition(first)).isEqualTo("operational -> major_outage");
                assertThat(transition(second)).isEqualTo("major_outage -> operational");
                assertThat(first.data().path("data").has("public")).isFalse();

                // A marker change: whatever arrives next must be it, not a copy of an earlier one.
                setStatus(a, "api", "partial_outage");
                assertThat(transition(client.next())).isEqualTo("operational -> partial_outage");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aResumingClientGetsWhatItMissedOnceAndThenLiveChanges(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            putService(node, "api", "operational", true);
            String key = new Fixtures(node).caller(0).key();
            String lastSeen;
            try (SseClient client = stream(node, key, Optional.empty())) {
                setStatus(node, "api", "degraded_performance");
                lastSeen = client.next().id();
            }
            setStatus(node, "api", "partial_outage");
            setStatus(node, "api", "major_outage");
            try (SseClient client = stream(node, key, Optional.of(lastSeen))) {
                assertThat(transition(client.next())).isEqualTo("degraded_performance -> partial_outage");
                assertThat(transition(client.next())).isEqualTo("partial_outage -> major_outage");
                setStatus(node, "api", "operational");
                assertThat(transition(client.next())).isEqualTo("major_outage -> operational");
            }
        }
    }

    @Test
    void changesOfServicesCallersCannotSeeAreNotStreamed() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            putService(node, "internal", "operational", false);
            putService(node, "api", "operational", true);
            String key = new Fixtures(node).caller(0).key();
            try (SseClient client = stream(node, key, Optional.empty())) {
                setStatus(node, "internal", "major_outage");
                setStatus(node, "api", "major_outage");
                SseClient.Event event = client.next();
                assertThat(event.data().path("data").path("serviceId").asText()).isEqualTo("api");
            }
        }
    }

    @Test
    void aKeyMayHoldThreeStreamsAtOnceAndGets429ForAFourth() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--sse-heartbeat-ms", "100")) {
            String key = new Fixtures(node).caller(0).key();
            List<SseClient> open = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    open.add(stream(node, key, Optional.empty()));
                    assertThat(open.getLast().status()).isEqualTo(200);
                }
                try (SseClient fourth = stream(node, key, Optional.empty())) {
                    assertThat(fourth.status()).isEqualTo(429);
                    assertThat(fourth.problem().path("code").asText()).isEqualTo("too_many_streams");
                    assertThat(fourth.header("Retry-After")).contains("5");
                }
                String otherKey = new Fixtures(node).caller(0).key();
                try (SseClient other = stream(node, otherKey, Optional.empty())) {
                    assertThat(other.status()).isEqualTo(200);
                }
                open.removeFirst().close();
                // The server notices the closed stream at its next heartbeat and frees the place.
                Waiting.until("a place is free again", () -> {
                    SseClient again = stream(node, key, Optional.empty());
                    if (again.status() == 200) {
                        open.add(again);
                        return true;
                    }
                    again.close();
                    return false;
                });
            } finally {
                open.forEach(SseClient::close);
            }
        }
    }

    @Test
    void heartbeatsKeepAQuietStreamAlive() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--sse-heartbeat-ms", "100")) {
            String key = new Fixtures(node).caller(0).key();
            try (SseClient client = stream(node, key, Optional.empty())) {
                assertThat(client.nextComment(Duration.ofSeconds(10))).contains("connected");
                assertThat(client.nextComment(Duration.ofSeconds(10))).contains("heartbeat");
            }
        }
    }

    @Test
    void aStreamOutlivesTheRequestTimeoutThatBoundsOrdinaryRequests() throws InterruptedException {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--request-timeout-s", "1")) {
            putService(node, "api", "operational", true);
            String key = new Fixtures(node).caller(0).key();
            try (SseClient client = stream(node, key, Optional.empty())) {
                Thread.sleep(Duration.ofMillis(2500));
                setStatus(node, "api", "major_outage");
                assertThat(transition(client.next())).isEqualTo("operational -> major_outage");
                assertThat(client.ended(Duration.ZERO)).isFalse();
            }
        }
    }

    @Test
    void revokingTheKeyEndsItsOpenStream() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(0);
            try (SseClient client = stream(node, caller.key(), Optional.empty())) {
                assertThat(client.status()).isEqualTo(200);
                assertThat(client.ended(Duration.ofMillis(200))).isFalse();
                String keyId = node.admin()
                        .get("/admin/accounts/" + caller.accountId() + "/keys")
                        .json()
                        .path("data")
                        .get(0)
                        .path("id")
                        .asText();
                assertThat(node.admin().delete("/admin/keys/" + keyId).status()).isEqualTo(204);
                assertThat(client.ended(Duration.ofSeconds(20))).isTrue();
            }
        }
    }

    @Test
    void theStreamNeedsACallerKeyAndAValidLastEventId() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.anonymous().get(STREAM).code()).isEqualTo("missing_api_key");
            assertThat(node.admin().get(STREAM).code()).isEqualTo("forbidden");
            String key = new Fixtures(node).caller(0).key();
            Reply badId = node.caller(key).send("GET", STREAM, null, Map.of("Last-Event-ID", "not-a-number"));
            assertThat(badId.status()).isEqualTo(400);
            assertThat(badId.code()).isEqualTo("invalid_last_event_id");
        }
    }

    private static SseClient stream(TestNode node, String key, Optional<String> lastEventId) {
        return SseClient.connect(node.baseUrl() + STREAM, key, lastEventId);
    }

    private static String transition(SseClient.Event event) {
        return event.data().path("data").path("oldStatus").asText() + " -> "
                + event.data().path("data").path("newStatus").asText();
    }

    static void putService(TestNode node, String id, String status, boolean isPublic) {
        Reply reply = node.admin()
                .put("/admin/services/" + id, Map.of("name", "Service " + id, "status", status, "public", isPublic));
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    }

    static void setStatus(TestNode node, String id, String status) {
        Reply reply = node.admin().patch("/admin/services/" + id, Map.of("status", status));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }
}
