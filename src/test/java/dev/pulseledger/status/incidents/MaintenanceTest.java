package dev.pulseledger.status.incidents;

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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Scheduled maintenance on one node, with a clock the test moves (CONTRACT §9). */
class MaintenanceTest {
    private static final Instant NOW = Instant.parse("2026-11-23T08:00:00Z");
    private static final Instant START = NOW.plus(Duration.ofHours(1));
    private static final Instant END = NOW.plus(Duration.ofHours(3));

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void servicesGoUnderMaintenanceAtTheStartAndBackAtTheEndUnlessSomeoneChangedThemMeanwhile(TestStore store) {
        TestClock clock = new TestClock(NOW);
        try (TestNode node = TestNode.start(TestNode.config(store.newDatabaseUrl(), "--events-poll-ms", "20"), clock)) {
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "API", "status", "degraded_performance"));
            admin.put("/admin/services/dashboard", Map.of("name", "Dashboard"));
            Api caller = node.caller(new Fixtures(node).caller(0).key());
            String id = schedule(admin, List.of("api", "dashboard"), START, END);

            JsonNode planned = caller.get("/api/pulse").json().get("scheduledMaintenances");
            assertThat(planned).hasSize(1);
            assertThat(planned.get(0).get("status").asText()).isEqualTo("scheduled");
            assertThat(planned.get(0).get("startsAt").asText()).isEqualTo(START.toString());

            clock.set(START);
            Waiting.until("the window started", () -> status(admin, id).equals("in_progress"));
            assertThat(IncidentApiTest.serviceStatus(admin, "api")).isEqualTo("under_maintenance");
            assertThat(IncidentApiTest.serviceStatus(admin, "dashboard")).isEqualTo("under_maintenance");
            admin.patch("/admin/services/dashboard", Map.of("status", "major_outage"));

            clock.set(END);
            Waiting.until("the window ended", () -> status(admin, id).equals("completed"));
            assertThat(IncidentApiTest.serviceStatus(admin, "api")).isEqualTo("degraded_performance");
            assertThat(IncidentApiTest.serviceStatus(admin, "dashboard")).isEqualTo("major_outage");
            JsonNode history = admin.get("/admin/services/api/history").json().get("data");
            assertThat(history.get(0).at("/by/type").asText()).isEqualTo("maintenance");
            assertThat(history.get(0).at("/by/id").asText()).isEqualTo(id);
            assertThat(history.get(0).get("at").asText()).isEqualTo(END.toString());
            assertThat(history.get(1).get("to").asText()).isEqualTo("under_maintenance");
            assertThat(history.get(1).get("at").asText()).isEqualTo(START.toString());
            assertThat(caller.get("/api/pulse").json().get("scheduledMaintenances"))
                    .isEmpty();
        }
    }

    /** Each window of a listing gets its own services (read for the whole listing at once), in order. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void eachWindowOfAListingHasItsOwnServices(TestStore store) {
        TestClock clock = new TestClock(NOW);
        try (TestNode node = TestNode.start(TestNode.config(store.newDatabaseUrl()), clock)) {
            Api admin = node.admin();
            for (String service : List.of("api", "auth", "db", "web")) {
                admin.put("/admin/services/" + service, Map.of("name", service.toUpperCase(Locale.ROOT)));
            }
            Api caller = node.caller(new Fixtures(node).caller(0).key());
            Map<String, List<String>> chosen = new LinkedHashMap<>();
            for (List<String> services :
                    List.of(List.of("web", "api"), List.of("db"), List.of("web", "auth", "db"), List.of("api"))) {
                Instant startsAt = START.plus(Duration.ofMinutes(10L * chosen.size()));
                chosen.put(
                        schedule(admin, services, startsAt, END),
                        services.stream().sorted().toList());
            }
            List<String> soonestFirst = List.copyOf(chosen.keySet());
            Waiting.until(
                    "the pulse lists every window",
                    () -> servicesOf(caller.get("/api/pulse").json().get("scheduledMaintenances"))
                            .equals(chosen));
            assertThat(List.copyOf(servicesOf(caller.get("/api/pulse").json().get("scheduledMaintenances"))
                            .keySet()))
                    .isEqualTo(soonestFirst);
            Map<String, List<String>> listed =
                    servicesOf(admin.get("/admin/maintenances").json().get("data"));
            assertThat(listed).isEqualTo(chosen);
            assertThat(List.copyOf(listed.keySet())).isEqualTo(soonestFirst.reversed());
            JsonNode firstTwo = admin.get("/admin/maintenances?limit=2").json();
            Map<String, List<String>> paged = servicesOf(firstTwo.get("data"));
            paged.putAll(servicesOf(admin.get("/admin/maintenances?limit=2&cursor="
                            + firstTwo.get("nextCursor").asText())
                    .json()
                    .get("data")));
            assertThat(paged).containsExactlyEntriesOf(listed);
        }
    }

    /** Each window's id with its services, in the order listed. */
    private static Map<String, List<String>> servicesOf(JsonNode windows) {
        Map<String, List<String>> services = new LinkedHashMap<>();
        windows.forEach(window -> {
            List<String> own = new ArrayList<>();
            window.get("services").forEach(service -> own.add(service.asText()));
            services.put(window.get("id").asText(), own);
        });
        return services;
    }

    @Test
    void overlappingWindowsHandTheServiceOnAndTheLastToEndPutsItBack() {
        TestClock clock = new TestClock(NOW);
        try (TestNode node =
                TestNode.start(TestNode.config(TestStore.SQLITE.newDatabaseUrl(), "--events-poll-ms", "20"), clock)) {
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "API"));
            String first = schedule(admin, List.of("api"), START, END);
            String second =
                    schedule(admin, List.of("api"), START.plus(Duration.ofHours(1)), END.plus(Duration.ofHours(1)));

            clock.set(START.plus(Duration.ofHours(1)));
            Waiting.until("both windows started", () -> status(admin, second).equals("in_progress"));
            clock.set(END);
            Waiting.until("the first window ended", () -> status(admin, first).equals("completed"));
            assertThat(IncidentApiTest.serviceStatus(admin, "api")).isEqualTo("under_maintenance");
            clock.set(END.plus(Duration.ofHours(1)));
            Waiting.until("the second window ended", () -> status(admin, second).equals("completed"));
            assertThat(IncidentApiTest.serviceStatus(admin, "api")).isEqualTo("operational");
        }
    }

    @Test
    void windowsCanBeMovedWhileScheduledAndDeletingOneInProgressPutsItsServicesBack() {
        TestClock clock = new TestClock(NOW);
        try (TestNode node =
                TestNode.start(TestNode.config(TestStore.SQLITE.newDatabaseUrl(), "--events-poll-ms", "20"), clock)) {
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "API", "status", "partial_outage"));
            String id = schedule(admin, List.of("api"), START, END);

            Instant later = START.plus(Duration.ofMinutes(30));
            Reply moved =
                    admin.patch("/admin/maintenances/" + id, Map.of("startsAt", later.toString(), "title", "Moved"));
            assertThat(moved.status()).isEqualTo(200);
            assertThat(moved.json().get("startsAt").asText()).isEqualTo(later.toString());
            assertThat(admin.patch("/admin/maintenances/" + id, Map.of("endsAt", NOW.toString()))
                            .code())
                    .isEqualTo("invalid_window");

            clock.set(later);
            Waiting.until("the window started", () -> status(admin, id).equals("in_progress"));
            assertThat(admin.patch("/admin/maintenances/" + id, Map.of("startsAt", START.toString()))
                            .code())
                    .isEqualTo("maintenance_started");
            assertThat(admin.delete("/admin/maintenances/" + id).status()).isEqualTo(204);
            assertThat(IncidentApiTest.serviceStatus(admin, "api")).isEqualTo("partial_outage");
            assertThat(admin.get("/admin/maintenances/" + id).code()).isEqualTo("maintenance_not_found");
        }
    }

    @Test
    void badWindowsAreRefusedWithTheirFieldAndChangeNothing() {
        TestClock clock = new TestClock(NOW);
        try (TestNode node = TestNode.start(TestNode.config(TestStore.SQLITE.newDatabaseUrl()), clock)) {
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "API"));
            List<Map<String, Object>> bodies = List.of(
                    window(List.of("api"), END, START),
                    window(List.of("api"), NOW.minus(Duration.ofHours(2)), NOW.minus(Duration.ofHours(1))),
                    window(List.of(), START, END),
                    window(List.of("Not A Slug"), START, END),
                    Map.of("title", "t", "services", List.of("api"), "startsAt", "tomorrow", "endsAt", END.toString()),
                    Map.of("title", "t", "services", List.of("api"), "startsAt", START.toString()));
            for (Map<String, Object> body : bodies) {
                Reply refused = admin.post("/admin/maintenances", body);
                assertThat(refused.status()).as(body.toString()).isEqualTo(400);
            }
            Reply unknown = admin.post("/admin/maintenances", window(List.of("api", "nope"), START, END));
            assertThat(unknown.status()).isEqualTo(422);
            assertThat(unknown.code()).isEqualTo("unknown_service");
            assertThat(admin.get("/admin/maintenances").json().get("data")).isEmpty();
        }
    }

    static String schedule(Api admin, List<String> services, Instant startsAt, Instant endsAt) {
        Reply reply = admin.post("/admin/maintenances", window(services, startsAt, endsAt));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.json().get("id").asText()).startsWith("mnt_");
        return reply.json().get("id").asText();
    }

    private static Map<String, Object> window(List<String> services, Instant startsAt, Instant endsAt) {
        return Map.of(
                "title",
                "Database upgrade",
                "message",
                "Expect short pauses.",
                "services",
                services,
                "startsAt",
                startsAt.toString(),
                "endsAt",
                endsAt.toString());
    }

    static String status(Api admin, String maintenanceId) {
        return admin.get("/admin/maintenances/" + maintenanceId)
                .json()
                .get("status")
                .asText();
    }
}
