package dev.pulseledger.status.incidents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SseClient;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Incidents through the operator API and as callers see them (CONTRACT §9), on both stores. */
class IncidentApiTest {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anIncidentSetsItsServicesInTheSameWriteAndShowsInThePulseBesideTheServices(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            Api caller = node.caller(new Fixtures(node).caller(0).key());

            Reply created = admin.post(
                    "/admin/incidents",
                    Map.of(
                            "title", "Elevated errors",
                            "impact", "major",
                            "status", "investigating",
                            "message", "We are looking into it.",
                            "services", Map.of("api", "major_outage", "dashboard", "partial_outage")));

            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String id = created.json().get("id").asText();
            assertThat(id).startsWith("inc_");
            assertThat(created.header("Location")).contains("/admin/incidents/" + id);
            assertThat(created.json().get("services"))
                    .extracting(JsonNode::asText)
                    .containsExactly("api", "dashboard");
            assertThat(created.json().get("updates")).hasSize(1);
            assertThat(created.json().at("/updates/0/services/api").asText()).isEqualTo("major_outage");
            assertThat(created.json().get("resolvedAt").isNull()).isTrue();

            JsonNode pulse = caller.get("/api/pulse").json();
            assertThat(ids(pulse.get("services"))).containsExactly("api", "dashboard", "search");
            assertThat(statusOf(pulse, "api")).isEqualTo("major_outage");
            assertThat(statusOf(pulse, "dashboard")).isEqualTo("partial_outage");
            assertThat(ids(pulse.get("activeIncidents"))).containsExactly(id);
            assertThat(pulse.get("scheduledMaintenances")).isEmpty();

            JsonNode history = admin.get("/admin/services/api/history").json().get("data");
            assertThat(history.get(0).get("from").asText()).isEqualTo("operational");
            assertThat(history.get(0).get("to").asText()).isEqualTo("major_outage");
            assertThat(history.get(0).at("/by/type").asText()).isEqualTo("incident");
            assertThat(history.get(0).at("/by/id").asText()).isEqualTo(id);
            assertThat(history.get(1).get("from").isNull()).isTrue();
            assertThat(history.get(1).at("/by/type").asText()).isEqualTo("operator");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void resolvingLeavesServicesAloneUnlessTheUpdateNamesThem(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            String id = open(admin, Map.of("api", "major_outage", "search", "degraded_performance"));

            Reply monitoring = admin.post(
                    "/admin/incidents/" + id + "/updates",
                    Map.of(
                            "status",
                            "monitoring",
                            "message",
                            "A fix is out.",
                            "services",
                            Map.of("api", "degraded_performance")));
            assertThat(monitoring.status()).as(monitoring.toString()).isEqualTo(201);
            Reply resolved = admin.post(
                    "/admin/incidents/" + id + "/updates",
                    Map.of("status", "resolved", "message", "All good.", "services", Map.of("api", "operational")));

            assertThat(resolved.status()).isEqualTo(201);
            assertThat(resolved.json().get("status").asText()).isEqualTo("resolved");
            assertThat(resolved.json().get("resolvedAt").isNull()).isFalse();
            assertThat(resolved.json().get("updates"))
                    .extracting(u -> u.get("status").asText())
                    .containsExactly("resolved", "monitoring", "investigating");
            assertThat(serviceStatus(admin, "api")).isEqualTo("operational");
            assertThat(serviceStatus(admin, "search")).isEqualTo("degraded_performance");
            assertThat(admin.get("/admin/incidents/" + id).json()).isEqualTo(resolved.json());
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badInputIsRefusedWithItsFieldAndChangesNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            Map<String, Object> unknownService = Map.of(
                    "title", "t", "message", "m", "services", Map.of("api", "major_outage", "nope", "major_outage"));
            Reply unknown = admin.post("/admin/incidents", unknownService);
            assertThat(unknown.status()).isEqualTo(422);
            assertThat(unknown.code()).isEqualTo("unknown_service");

            for (Map<String, Object> body : List.<Map<String, Object>>of(
                    Map.of("message", "m"),
                    Map.of("title", "t", "message", "m", "impact", "huge"),
                    Map.of("title", "t", "message", "m", "status", "fixed"),
                    Map.of("title", "t", "message", "m", "services", Map.of("api", "down")),
                    Map.of("title", "t", "message", "m", "services", List.of("api")),
                    Map.of("title", "t"),
                    Map.of("title", "t", "message", "m", "colour", "red"))) {
                Reply refused = admin.post("/admin/incidents", body);
                assertThat(refused.status()).as(body.toString()).isEqualTo(400);
                assertThat(refused.json().get("detail").asText())
                        .as(body.toString())
                        .isNotBlank();
            }
            assertThat(admin.get("/admin/incidents").json().get("data")).isEmpty();
            assertThat(serviceStatus(admin, "api")).isEqualTo("operational");

            String id = open(admin, Map.of());
            Reply noStatus = admin.post("/admin/incidents/" + id + "/updates", Map.of("message", "m"));
            assertThat(noStatus.status()).isEqualTo(400);
            Reply missing =
                    admin.post("/admin/incidents/inc_missing/updates", Map.of("status", "resolved", "message", "m"));
            assertThat(missing.status()).isEqualTo(404);
            assertThat(missing.code()).isEqualTo("incident_not_found");
            assertThat(admin.get("/admin/incidents/" + id).json().get("updates"))
                    .hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anIncidentCanBeRetitledAndDeletedWhileServicesKeepTheirStatus(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            String id = open(admin, Map.of("api", "major_outage"));

            Reply edited =
                    admin.patch("/admin/incidents/" + id, Map.of("title", "Database failover", "impact", "critical"));
            assertThat(edited.status()).isEqualTo(200);
            assertThat(edited.json().get("title").asText()).isEqualTo("Database failover");
            assertThat(edited.json().get("impact").asText()).isEqualTo("critical");
            assertThat(admin.patch("/admin/incidents/" + id, Map.of("title", " "))
                            .status())
                    .isEqualTo(400);

            assertThat(admin.delete("/admin/incidents/" + id).status()).isEqualTo(204);
            assertThat(admin.get("/admin/incidents/" + id).status()).isEqualTo(404);
            assertThat(admin.delete("/admin/incidents/" + id).status()).isEqualTo(404);
            assertThat(serviceStatus(admin, "api")).isEqualTo("major_outage");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void callersPageThroughIncidentsOfPublicServicesNewestFirstSeeingOnlyPublicServices(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            Api caller = node.caller(new Fixtures(node).caller(0).key());
            String hiddenOnly = open(admin, Map.of("internal", "major_outage"));
            List<String> shown = new ArrayList<>();
            shown.add(open(admin, Map.of()));
            shown.add(open(admin, Map.of("api", "partial_outage", "internal", "major_outage")));
            shown.add(open(admin, Map.of("search", "major_outage")));

            JsonNode first = caller.get("/api/pulse/incidents?limit=2").json();
            JsonNode second = caller.get("/api/pulse/incidents?limit=2&cursor="
                            + first.get("nextCursor").asText())
                    .json();

            assertThat(ids(first.get("data"))).containsExactly(shown.get(2), shown.get(1));
            assertThat(ids(second.get("data"))).containsExactly(shown.get(0));
            assertThat(second.get("nextCursor").isNull()).isTrue();
            assertThat(first.toString()).doesNotContain("internal").doesNotContain(hiddenOnly);
            assertThat(first.at("/data/1/services"))
                    .extracting(JsonNode::asText)
                    .containsExactly("api");
            assertThat(caller.get("/api/pulse").json().toString())
                    .doesNotContain(hiddenOnly)
                    .doesNotContain("internal");
            assertThat(admin.get("/admin/incidents").json().get("data")).hasSize(4);
            assertThat(caller.get("/api/pulse/incidents?limit=0").code()).isEqualTo("invalid_limit");
            assertThat(caller.get("/api/pulse/incidents?cursor=zzz").code()).isEqualTo("invalid_cursor");
            assertThat(admin.get("/api/pulse/incidents").status()).isEqualTo(403);
            assertThat(caller.get("/admin/incidents").status()).isEqualTo(403);
        }
    }

    @Test
    void incidentsReachThePulseStreamWithOnlyWhatCallersMaySee() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            services(admin);
            String key = new Fixtures(node).caller(0).key();
            try (SseClient stream = SseClient.connect(node.baseUrl() + "/api/pulse/stream", key, Optional.empty())) {
                open(admin, Map.of("internal", "major_outage"));
                String id = open(admin, Map.of("api", "major_outage", "internal", "partial_outage"));
                admin.post("/admin/incidents/" + id + "/updates", Map.of("status", "resolved", "message", "Fixed."));

                List<SseClient.Event> events = List.of(stream.next(), stream.next(), stream.next());
                assertThat(events)
                        .extracting(SseClient.Event::type)
                        .containsExactly("service.status_changed", "incident.created", "incident.updated");
                JsonNode incident = events.get(1).data().at("/data/incident");
                assertThat(incident.get("id").asText()).isEqualTo(id);
                assertThat(incident.get("services"))
                        .extracting(JsonNode::asText)
                        .containsExactly("api");
                assertThat(events.get(1).data().toString()).doesNotContain("internal");
                assertThat(events.get(2).data().at("/data/incident/status").asText())
                        .isEqualTo("resolved");
            }
        }
    }

    /** api and dashboard spotlighted, search public, internal hidden; all operational. */
    static void services(Api admin) {
        put(admin, "search", Map.of("name", "Search", "position", 0));
        put(admin, "dashboard", Map.of("name", "Dashboard", "spotlighted", true, "position", 2));
        put(admin, "api", Map.of("name", "Public API", "spotlighted", true, "position", 1));
        put(admin, "internal", Map.of("name", "Internal queue", "public", false));
    }

    private static void put(Api admin, String id, Map<String, Object> body) {
        assertThat(admin.put("/admin/services/" + id, body).status()).isIn(200, 201);
    }

    static String open(Api admin, Map<String, String> services) {
        Reply reply = admin.post(
                "/admin/incidents",
                Map.of("title", "Trouble", "impact", "minor", "message", "Looking into it.", "services", services));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    static String serviceStatus(Api admin, String id) {
        return admin.get("/admin/services/" + id).json().get("status").asText();
    }

    private static String statusOf(JsonNode pulse, String id) {
        for (JsonNode service : pulse.get("services")) {
            if (service.get("id").asText().equals(id)) {
                return service.get("status").asText();
            }
        }
        throw new AssertionError("no service " + id);
    }

    private static List<String> ids(JsonNode items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.get("id").asText()));
        return ids;
    }
}
