package dev.pulseledger.status.heartbeats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Heartbeats on three nodes sharing one database and one test clock (CONTRACT §16): each miss opens
 * exactly one draft incident and sets the missed status, nothing of it is public before it is
 * published, and beats returning restore the status and update the incident.
 */
class HeartbeatTest {
    private static final Instant START = Instant.parse("2026-11-21T10:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void eachMissOpensOneDraftOnThreeNodesAndBeatsReturningRestoreTheStatus(TestStore store) {
        TestClock clock = new TestClock(START);
        String url = store.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(TestNode.start(TestNode.config(url, "--public-status-page"), clock));
            }
            Api admin = nodes.get(0).admin();
            admin.put("/admin/services/backup", Map.of("name", "Nightly backup", "status", "degraded_performance"));
            Reply created = admin.post(
                    "/admin/services/backup/heartbeat", Map.of("graceSeconds", 60, "statusWhenMissed", "major_outage"));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String beatPath = created.json().get("url").asText();
            assertThat(beatPath).startsWith("/heartbeats/hb_");
            assertThat(admin.get("/admin/services/backup/heartbeat").json().has("url"))
                    .as("the secret URL is shown once")
                    .isFalse();
            String key = new Fixtures(admin).caller(0).key();

            clock.advance(Duration.ofSeconds(30));
            assertThat(nodes.get(1).anonymous().post(beatPath).status()).isEqualTo(204);
            clock.advance(Duration.ofSeconds(61));
            Waiting.until("the miss sets the status", () -> status(admin).equals("major_outage"));
            Waiting.until("the draft is opened", () -> drafts(admin).size() == 1);
            for (TestNode node : nodes) {
                assertThat(node.caller(key).get("/api/pulse").json().get("activeIncidents"))
                        .isEmpty();
                assertThat(node.anonymous().get("/status").text()).doesNotContain("No heartbeat");
                assertThat(node.anonymous()
                                .get("/status/api/v2/incidents.json")
                                .json()
                                .get("incidents"))
                        .isEmpty();
            }
            clock.advance(Duration.ofSeconds(30));
            assertThat(Waiting.within(Duration.ofSeconds(2), () -> drafts(admin).size() > 1))
                    .as("three nodes open one draft per miss")
                    .isFalse();
            String first = drafts(admin).getFirst().get("id").asText();

            clock.advance(Duration.ofSeconds(1));
            assertThat(nodes.get(2).anonymous().post(beatPath).status()).isEqualTo(204);
            Waiting.until("the status is restored", () -> status(admin).equals("degraded_performance"));
            Waiting.until(
                    "the draft is updated",
                    () -> admin.get("/admin/incidents/" + first)
                            .json()
                            .get("status")
                            .asText()
                            .equals("resolved"));
            assertThat(admin.get("/admin/incidents/" + first)
                            .json()
                            .get("draft")
                            .asBoolean())
                    .isTrue();
            JsonNode history =
                    admin.get("/admin/services/backup/history").json().get("data");
            assertThat(history.get(0).at("/by/type").asText()).isEqualTo("heartbeat");
            assertThat(history.get(1).at("/by/type").asText()).isEqualTo("heartbeat");

            clock.advance(Duration.ofSeconds(61));
            Waiting.until(
                    "a second miss opens a second draft", () -> drafts(admin).size() == 2);
            String second = drafts(admin).getFirst().get("id").asText();
            assertThat(second).isNotEqualTo(first);
            Reply published = admin.post("/admin/incidents/" + second + "/publish");
            assertThat(published.status()).as(published.toString()).isEqualTo(200);
            assertThat(published.json().get("draft").asBoolean()).isFalse();
            assertThat(admin.post("/admin/incidents/" + second + "/publish").code())
                    .isEqualTo("incident_not_draft");
            Waiting.until(
                    "the published incident is public",
                    () -> nodes.get(1)
                                    .caller(key)
                                    .get("/api/pulse")
                                    .json()
                                    .get("activeIncidents")
                                    .size()
                            == 1);
            assertThat(admin.delete("/admin/incidents/" + first).status())
                    .as("a draft is discarded")
                    .isEqualTo(204);
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aBeatIsCheapUnauthenticatedAndLimitedPerSecret(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            admin.put("/admin/services/job", Map.of("name", "Job"));
            assertThat(admin.post("/admin/services/job/heartbeat", Map.of("graceSeconds", 5))
                            .status())
                    .as("grace below 10 s")
                    .isEqualTo(400);
            assertThat(admin.post("/admin/services/nope/heartbeat", Map.of("graceSeconds", 60))
                            .status())
                    .isEqualTo(404);
            assertThat(admin.post(
                                    "/admin/services/job/heartbeat",
                                    Map.of("graceSeconds", 60, "statusWhenMissed", "operational"))
                            .status())
                    .isEqualTo(400);
            String beatPath = admin.post("/admin/services/job/heartbeat", Map.of("graceSeconds", 60))
                    .json()
                    .get("url")
                    .asText();
            assertThat(node.anonymous().post(beatPath).status()).isEqualTo(204);
            Reply limited = node.anonymous().post(beatPath);
            assertThat(limited.status()).isEqualTo(429);
            assertThat(limited.header("Retry-After")).contains("1");
            assertThat(node.anonymous().post("/heartbeats/hb_" + "A".repeat(32)).code())
                    .isEqualTo("heartbeat_not_found");
            assertThat(node.anonymous().post("/heartbeats/nonsense").code()).isEqualTo("heartbeat_not_found");
            String replaced = admin.post("/admin/services/job/heartbeat", Map.of("graceSeconds", 60))
                    .json()
                    .get("url")
                    .asText();
            assertThat(replaced).isNotEqualTo(beatPath);
            Waiting.until(
                    "the old secret is unknown once its limit has passed",
                    () -> node.anonymous().post(beatPath).code().equals("heartbeat_not_found"));
            assertThat(node.console()).doesNotContain(replaced.substring("/heartbeats/".length()));
        }
    }

    private static String status(Api admin) {
        return admin.get("/admin/services/backup").json().get("status").asText();
    }

    private static List<JsonNode> drafts(Api admin) {
        List<JsonNode> drafts = new ArrayList<>();
        admin.get("/admin/incidents").json().get("data").forEach(incident -> {
            if (incident.get("draft").asBoolean()) {
                drafts.add(incident);
            }
        });
        return drafts;
    }
}
