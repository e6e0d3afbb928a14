package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Operators with names and roles (CONTRACT §17): the first owner holds the configured key, operators
 * get keys of their own (shown once, revocable), roles are enforced, the last owner stays, and every
 * change is in the audit log under the operator's name.
 */
class OperatorsTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anOperatorGetsAKeyOfTheirOwnWhoseRoleDecidesWhatItMayDo(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api owner = node.admin();
            JsonNode operators = owner.get("/admin/operators").json().path("data");
            assertThat(operators).hasSize(1);
            assertThat(operators.get(0).path("role").asText()).isEqualTo("owner");

            Reply created = owner.post(
                    "/admin/operators", Map.of("name", "Bea Billing", "email", "Bea@Example.com", "role", "billing"));
            assertThat(created.status()).isEqualTo(201);
            String id = created.json().path("id").asText();
            assertThat(id).startsWith("op_");
            assertThat(created.json().path("email").asText()).isEqualTo("bea@example.com");

            Reply issued = owner.post("/admin/operators/" + id + "/keys", Map.of("name", "laptop"));
            assertThat(issued.status()).isEqualTo(201);
            String key = issued.json().path("key").asText();
            assertThat(key).startsWith("pl_admin_");
            JsonNode listed =
                    owner.get("/admin/operators/" + id + "/keys").json().path("data");
            assertThat(listed).hasSize(1);
            assertThat(listed.toString()).doesNotContain(key);

            Api billing = node.caller(key);
            assertThat(billing.post("/admin/plans", Map.of("id", "pro", "name", "Pro"))
                            .status())
                    .isEqualTo(201);
            Reply refused = billing.put("/admin/services/api", Map.of("name", "API", "status", "operational"));
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.code()).isEqualTo("forbidden_for_role");
            assertThat(billing.post("/admin/operators", Map.of("name", "X", "email", "x@example.com", "role", "owner"))
                            .code())
                    .isEqualTo("forbidden_for_role");

            assertThat(owner.delete("/admin/operators/" + id + "/keys/"
                                    + issued.json().path("id").asText())
                            .status())
                    .isEqualTo(204);
            assertThat(billing.get("/admin/plans").status()).isEqualTo(401);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theLastOwnerCannotBeDemotedOrDisabledButOneOfTwoCan(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api owner = node.admin();
            String first = owner.get("/admin/operators")
                    .json()
                    .path("data")
                    .get(0)
                    .path("id")
                    .asText();

            Reply demote = owner.patch("/admin/operators/" + first, Map.of("role", "viewer"));
            assertThat(demote.status()).isEqualTo(409);
            assertThat(demote.code()).isEqualTo("last_owner");
            assertThat(owner.patch("/admin/operators/" + first, Map.of("disabled", true))
                            .code())
                    .isEqualTo("last_owner");

            String second = owner.post(
                            "/admin/operators",
                            Map.of("name", "Olga Owner", "email", "olga@example.com", "role", "owner"))
                    .json()
                    .path("id")
                    .asText();
            String secondKey = owner.post("/admin/operators/" + second + "/keys", Map.of())
                    .json()
                    .path("key")
                    .asText();
            Api olga = node.caller(secondKey);
            Reply demoted = olga.patch("/admin/operators/" + first, Map.of("role", "viewer"));
            assertThat(demoted.status()).isEqualTo(200);
            assertThat(demoted.json().path("role").asText()).isEqualTo("viewer");
            Reply last = olga.patch("/admin/operators/" + second, Map.of("disabled", true));
            assertThat(last.code()).isEqualTo("last_owner");
            assertThat(owner.get("/admin/plans").status())
                    .as("the configured key acts for the first owner who is an owner: Olga now")
                    .isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badInputIsRefusedWithTheFieldNamedAndChangesNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api owner = node.admin();
            assertThat(owner.post("/admin/operators", Map.of("name", "A", "email", "not-an-email", "role", "viewer"))
                            .json()
                            .path("detail")
                            .asText())
                    .contains("email");
            assertThat(owner.post("/admin/operators", Map.of("name", "A", "email", "a@example.com", "role", "root"))
                            .status())
                    .isEqualTo(400);
            assertThat(owner.post(
                                    "/admin/operators",
                                    Map.of(
                                            "name",
                                            "A",
                                            "email",
                                            "a@example.com",
                                            "role",
                                            "viewer",
                                            "password",
                                            "short"))
                            .status())
                    .isEqualTo(400);
            assertThat(owner.get("/admin/operators").json().path("data")).hasSize(1);
            owner.post("/admin/operators", Map.of("name", "A", "email", "a@example.com", "role", "viewer"));
            assertThat(owner.post("/admin/operators", Map.of("name", "B", "email", "A@example.com", "role", "viewer"))
                            .code())
                    .isEqualTo("email_taken");
            assertThat(owner.get("/admin/operators/op_nobody").code()).isEqualTo("operator_not_found");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void everyChangeIsAuditedWithTheOperatorAndTheKeyAndTheLogFiltersByOperatorAndTime(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api owner = node.admin();
            String id = owner.post(
                            "/admin/operators",
                            Map.of("name", "Sam Status", "email", "sam@example.com", "role", "status"))
                    .json()
                    .path("id")
                    .asText();
            JsonNode key =
                    owner.post("/admin/operators/" + id + "/keys", Map.of()).json();
            Api sam = node.caller(key.path("key").asText());
            assertThat(sam.put("/admin/services/api", Map.of("name", "API", "status", "operational"))
                            .status())
                    .isEqualTo(201);
            assertThat(sam.post("/admin/plans", Map.of("id", "no", "name", "No"))
                            .status())
                    .isEqualTo(403);

            JsonNode entries = owner.get("/admin/audit?operatorId=" + id).json().path("data");
            assertThat(entries).hasSize(1);
            JsonNode entry = entries.get(0);
            assertThat(entry.path("operatorName").asText()).isEqualTo("Sam Status");
            assertThat(entry.path("via").asText()).isEqualTo("key");
            assertThat(entry.path("credential").asText())
                    .isEqualTo(key.path("id").asText());
            assertThat(entry.path("method").asText()).isEqualTo("PUT");
            assertThat(entry.path("path").asText()).isEqualTo("/admin/services/api");

            JsonNode everyone = owner.get("/admin/audit?limit=2").json();
            assertThat(everyone.path("data")).hasSize(2);
            assertThat(everyone.path("data").get(0).path("path").asText()).isEqualTo("/admin/services/api");
            String next = everyone.path("nextCursor").asText();
            assertThat(owner.get("/admin/audit?limit=2&cursor=" + next).json().path("data"))
                    .isNotEmpty();
            assertThat(owner.get("/admin/audit?to=2000-01-02T00:00:00Z").json().path("data"))
                    .isEmpty();
            assertThat(owner.get("/admin/audit?from=nonsense").status()).isEqualTo(400);
        }
    }
}
