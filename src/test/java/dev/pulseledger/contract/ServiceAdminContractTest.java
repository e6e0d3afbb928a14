package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Reply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CONTRACT §4: PUT, PATCH, DELETE and GET of /admin/services. */
class ServiceAdminContractTest extends ContractTest {
    private static final Map<String, Object> API = Map.of(
            "name",
            "API",
            "description",
            "The public API",
            "status",
            "operational",
            "spotlighted",
            true,
            "position",
            2,
            "public",
            true);

    @Test
    void putCreatesWith201ThenReplacesWith200() {
        Reply created = admin().put("/admin/services/api", API);
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode body = created.json();
        assertThat(body.path("id").asText()).isEqualTo("api");
        assertThat(body.path("name").asText()).isEqualTo("API");
        assertThat(body.path("description").asText()).isEqualTo("The public API");
        assertThat(body.path("status").asText()).isEqualTo("operational");
        assertThat(body.path("spotlighted").asBoolean()).isTrue();
        assertThat(body.path("position").asInt()).isEqualTo(2);
        assertThat(body.path("public").asBoolean()).isTrue();
        assertThat(body.path("updatedAt").asText()).matches(RFC_3339_UTC);

        Reply replaced = admin().put("/admin/services/api", Map.of("name", "API v2", "status", "partial_outage"));
        assertThat(replaced.status()).as(replaced.toString()).isEqualTo(200);
        JsonNode read = admin().get("/admin/services/api").json();
        assertThat(read.path("name").asText()).isEqualTo("API v2");
        assertThat(read.path("status").asText()).isEqualTo("partial_outage");
        assertThat(read.path("description").asText())
                .as("a replace does not keep old fields")
                .isEmpty();
        assertThat(read.path("spotlighted").asBoolean()).isFalse();
        assertThat(listed("api")).isEqualTo(read);
    }

    @Test
    void patchChangesOnlyTheFieldsSent() {
        admin().put("/admin/services/dashboard", API);
        Reply patched = admin().patch("/admin/services/dashboard", Map.of("status", "major_outage"));
        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);
        assertThat(patched.json().path("status").asText()).isEqualTo("major_outage");
        assertThat(patched.json().path("name").asText()).isEqualTo("API");
        assertThat(patched.json().path("description").asText()).isEqualTo("The public API");
        assertThat(patched.json().path("spotlighted").asBoolean()).isTrue();
        assertThat(patched.json().path("position").asInt()).isEqualTo(2);
        assertThat(listed("dashboard").path("status").asText()).isEqualTo("major_outage");
        assertThat(caller(fixtures.caller(0))
                        .get("/api/pulse")
                        .json()
                        .path("services")
                        .valueStream()
                        .filter(s -> s.path("id").asText().equals("dashboard"))
                        .map(s -> s.path("status").asText()))
                .containsExactly("major_outage");
    }

    @Test
    void deleteRemovesWith204ThenTheServiceIsGone() {
        admin().put("/admin/services/gone", API);
        Reply deleted = admin().delete("/admin/services/gone");
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.text()).isEmpty();
        assertProblem(admin().get("/admin/services/gone"), 404, "service_not_found");
        assertProblem(admin().delete("/admin/services/gone"), 404, "service_not_found");
        assertProblem(admin().patch("/admin/services/gone", Map.of("status", "unknown")), 404, "service_not_found");
        assertThat(caller(fixtures.caller(0))
                        .get("/api/pulse")
                        .json()
                        .path("services")
                        .valueStream()
                        .map(s -> s.path("id").asText()))
                .doesNotContain("gone");
    }

    @Test
    void theOperatorListHasEveryServicePublicOrNot() {
        admin().put("/admin/services/listed-public", Map.of("name", "Public"));
        admin().put("/admin/services/listed-private", Map.of("name", "Private", "public", false));
        assertThat(listed("listed-public").path("public").asBoolean()).isTrue();
        assertThat(listed("listed-private").path("public").asBoolean()).isFalse();
    }

    @Test
    void badServiceInputIs400AndChangesNothing() {
        admin().put("/admin/services/steady", API);
        JsonNode before = listed("steady");
        for (String badId : List.of("Bad_Id", "-starts-with-dash", "x".repeat(64), "UPPER")) {
            assertProblem(admin().put("/admin/services/" + badId, API), 400, "invalid_service_id");
        }
        assertBadField(
                admin().put("/admin/services/unnamed", Map.of("status", "operational")), "invalid_request", "name");
        assertBadField(
                admin().put("/admin/services/steady", Map.of("name", "x", "position", "first")),
                "invalid_request",
                "position");
        assertBadField(
                admin().patch("/admin/services/steady", Map.of("spotlighted", "yes")),
                "invalid_request",
                "spotlighted");
        assertBadField(admin().patch("/admin/services/steady", Map.of("name", "")), "invalid_request", "name");
        assertBadField(admin().patch("/admin/services/steady", Map.of("colour", "red")), "invalid_request", "colour");
        assertThat(listed("steady")).isEqualTo(before);
        assertProblem(admin().get("/admin/services/unnamed"), 404, "service_not_found");
    }

    private JsonNode listed(String id) {
        Reply reply = admin().get("/admin/services");
        assertThat(reply.status()).isEqualTo(200);
        return reply.json()
                .path("data")
                .valueStream()
                .filter(s -> s.path("id").asText().equals(id))
                .findFirst()
                .orElseThrow(() -> new AssertionError(id + " is not listed: " + reply));
    }
}
