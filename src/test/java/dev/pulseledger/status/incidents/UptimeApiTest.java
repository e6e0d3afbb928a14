package dev.pulseledger.status.incidents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code GET /api/pulse/services/{id}/uptime} from the history that incidents write, on a clock the test moves. */
class UptimeApiTest {

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void overlappingIncidentsCountEachMomentOnceAtTheServicesStatusAndTheDaysBeforeItExistedHaveNoData(
            TestStore store) {
        TestClock clock = new TestClock(Instant.parse("2026-11-20T12:00:00Z"));
        try (TestNode node = TestNode.start(TestNode.config(store.newDatabaseUrl()), clock)) {
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "Public API"));
            admin.put("/admin/services/hidden", Map.of("name", "Hidden", "public", false));
            Api caller = node.caller(new Fixtures(node).caller(0).key());

            clock.set(Instant.parse("2026-11-21T10:00:00Z"));
            String a = IncidentApiTest.open(admin, Map.of("api", "major_outage"));
            clock.set(Instant.parse("2026-11-21T11:00:00Z"));
            String b = IncidentApiTest.open(admin, Map.of("api", "partial_outage"));
            clock.set(Instant.parse("2026-11-21T12:00:00Z"));
            update(admin, a, Map.of("status", "resolved", "message", "A is over; B still hurts."));
            clock.set(Instant.parse("2026-11-21T14:00:00Z"));
            update(
                    admin,
                    b,
                    Map.of("status", "resolved", "message", "Over.", "services", Map.of("api", "operational")));
            clock.set(Instant.parse("2026-11-22T06:00:00Z"));

            JsonNode uptime =
                    caller.get("/api/pulse/services/api/uptime?days=4").json();

            assertThat(uptime.get("serviceId").asText()).isEqualTo("api");
            assertThat(uptime.get("from").asText()).isEqualTo("2026-11-19");
            assertThat(uptime.get("to").asText()).isEqualTo("2026-11-22");
            JsonNode days = uptime.get("days");
            assertThat(days)
                    .extracting(d -> d.get("date").asText())
                    .containsExactly("2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22");
            assertThat(days.get(0).get("uptime").isNull()).isTrue();
            assertThat(days.get(0).get("worstStatus").isNull()).isTrue();
            assertThat(days.get(1).get("uptime").asDouble()).isEqualTo(1.0);
            // 10:00-11:00 major (1 h down), 11:00-14:00 partial (0.9 h down): A's resolution left B's status.
            assertThat(days.get(2).get("uptime").asDouble()).isCloseTo(1 - 1.9 / 24, within(1e-9));
            assertThat(days.get(2).get("worstStatus").asText()).isEqualTo("major_outage");
            assertThat(days.get(3).get("uptime").asDouble()).isEqualTo(1.0);
            // 12 + 24 + 6 hours observed.
            assertThat(uptime.get("uptime").asDouble()).isCloseTo(1 - 1.9 / 42, within(1e-9));

            assertThat(caller.get("/api/pulse/services/api/uptime").json().get("days"))
                    .hasSize(90);
            for (String days0 : new String[] {"0", "91", "ten", "1.5"}) {
                assertThat(caller.get("/api/pulse/services/api/uptime?days=" + days0)
                                .code())
                        .isEqualTo("invalid_days");
            }
            assertThat(caller.get("/api/pulse/services/hidden/uptime").code()).isEqualTo("service_not_found");
            assertThat(caller.get("/api/pulse/services/nope/uptime").status()).isEqualTo(404);
        }
    }

    private static void update(Api admin, String incidentId, Map<String, Object> body) {
        assertThat(admin.post("/admin/incidents/" + incidentId + "/updates", body)
                        .status())
                .isEqualTo(201);
    }
}
