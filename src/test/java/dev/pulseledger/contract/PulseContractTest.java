package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CONTRACT §3, GET /api/pulse: only public services, spotlighted first, Statuspage statuses. */
class PulseContractTest extends ContractTest {
    private static final Set<String> FIELDS =
            Set.of("id", "name", "description", "status", "spotlighted", "position", "updatedAt", "groupId");
    private static final Comparator<JsonNode> PULSE_ORDER = Comparator.comparing(
                    (JsonNode s) -> !s.path("spotlighted").asBoolean())
            .thenComparingInt(s -> s.path("position").asInt())
            .thenComparing(s -> s.path("id").asText());

    @Test
    void spotlightedServicesComeFirstThenByPositionThenById() {
        putService("order-zeta", true, 5, true);
        putService("order-alpha", true, 5, true);
        putService("order-mid", true, 1, true);
        putService("order-aaa", false, 0, true);
        putService("order-bbb", false, -3, true);
        putService("order-ccc", false, 0, true);
        putService("order-hidden", true, -10, false);
        putService("order-aab", false, 0, true);

        List<JsonNode> services = pulse();

        assertThat(services.stream().map(s -> s.path("id").asText()).filter(id -> id.startsWith("order-")))
                .containsExactly(
                        "order-mid", "order-alpha", "order-zeta", "order-bbb", "order-aaa", "order-aab", "order-ccc");
        assertThat(services).isSortedAccordingTo(PULSE_ORDER);
    }

    @Test
    void everyServiceHasTheContractFieldsAndNoOthers() {
        putService("fields-one", false, 3, true);
        Fixtures.Caller caller = fixtures.caller(0);
        Reply reply = caller(caller).get("/api/pulse");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        JsonNode service = reply.json()
                .path("services")
                .valueStream()
                .filter(s -> s.path("id").asText().equals("fields-one"))
                .findFirst()
                .orElseThrow();
        assertThat(service.fieldNames()).toIterable().containsExactlyInAnyOrderElementsOf(FIELDS);
        assertThat(service.path("name").asText()).isEqualTo("Service fields-one");
        assertThat(service.path("description").asText()).isEqualTo("About fields-one");
        assertThat(service.path("status").asText()).isEqualTo("operational");
        assertThat(service.path("spotlighted").isBoolean()).isTrue();
        assertThat(service.path("position").asInt()).isEqualTo(3);
        assertThat(service.path("updatedAt").asText()).matches(RFC_3339_UTC);
    }

    @Test
    void onlyPublicServicesAreListed() {
        putService("visible-later", false, 0, false);
        assertThat(pulseIds()).doesNotContain("visible-later");

        admin().patch("/admin/services/visible-later", Map.of("public", true));
        assertThat(pulseIds()).contains("visible-later");

        admin().patch("/admin/services/visible-later", Map.of("public", false));
        assertThat(pulseIds()).doesNotContain("visible-later");
        assertThat(admin().get("/admin/services")
                        .json()
                        .path("data")
                        .valueStream()
                        .map(s -> s.path("id").asText()))
                .contains("visible-later");
    }

    @Test
    void everyStatuspageStatusIsShownAsIs() {
        List<String> statuses = List.of(
                "operational",
                "degraded_performance",
                "partial_outage",
                "major_outage",
                "under_maintenance",
                "unknown");
        for (String status : statuses) {
            Reply put = admin().put(
                            "/admin/services/status-" + status.replace('_', '-'),
                            Map.of("name", status, "status", status));
            assertThat(put.status()).as(put.toString()).isEqualTo(201);
        }
        for (String status : statuses) {
            assertThat(pulse().stream()
                            .filter(s -> s.path("id").asText().equals("status-" + status.replace('_', '-')))
                            .map(s -> s.path("status").asText()))
                    .containsExactly(status);
        }
    }

    @Test
    void aStatusOutsideTheVocabularyIs400AndChangesNothing() {
        putService("vocabulary", false, 0, true);
        List<JsonNode> before = pulse();
        for (String status : List.of("down", "OPERATIONAL", "", "major outage")) {
            assertBadField(
                    admin().patch("/admin/services/vocabulary", Map.of("status", status)), "invalid_request", "status");
            assertBadField(
                    admin().put("/admin/services/vocabulary-new", Map.of("name", "x", "status", status)),
                    "invalid_request",
                    "status");
        }
        assertThat(pulse()).isEqualTo(before);
    }

    private void putService(String id, boolean spotlighted, int position, boolean isPublic) {
        Reply reply = admin().put(
                        "/admin/services/" + id,
                        Map.of(
                                "name",
                                "Service " + id,
                                "description",
                                "About " + id,
                                "status",
                                "operational",
                                "spotlighted",
                                spotlighted,
                                "position",
                                position,
                                "public",
                                isPublic));
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    }

    private List<JsonNode> pulse() {
        Reply reply = caller(fixtures.caller(0)).get("/api/pulse");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().path("services").valueStream().toList();
    }

    private List<String> pulseIds() {
        return pulse().stream().map(s -> s.path("id").asText()).toList();
    }
}
