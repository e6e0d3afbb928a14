package dev.pulseledger.sla;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CONTRACT §13: a plan's {@code sla} is set with its other fields, checked field by field, and shown to its callers. */
class PlanSlaTest {
    private static final Map<String, Object> SLA = Map.of(
            "services",
            List.of("api"),
            "tiers",
            List.of(Map.of("below", 0.999, "creditPercent", 10), Map.of("below", 0.99, "creditPercent", 25)));

    @Test
    void aPlansSlaIsStoredAndShownToItsCallers() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            service(admin, "api");
            Reply created =
                    admin.post("/admin/plans", Map.of("id", "pro", "name", "Pro", "allowance", 1000, "sla", SLA));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            Fixtures fixtures = new Fixtures(node);
            Api caller = node.caller(fixtures.key(fixtures.account("pro", 0)));

            JsonNode sla = caller.get("/api/tokens/plan").json().path("sla");

            assertThat(sla.path("services").get(0).asText()).isEqualTo("api");
            assertThat(sla.path("tiers").get(1).path("below").asDouble()).isEqualTo(0.99);
            assertThat(sla.path("tiers").get(1).path("creditPercent").asInt()).isEqualTo(25);
            assertThat(admin.get("/admin/plans/free").json().path("sla").isNull())
                    .isTrue();
            Reply removed = admin.put("/admin/plans/pro", Map.of("name", "Pro", "allowance", 1000));
            assertThat(removed.json().path("sla").isNull())
                    .as(removed.toString())
                    .isTrue();
        }
    }

    @Test
    void aWrongSlaIsRefusedNamingItsFieldAndChangesNothing() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            service(admin, "api");
            Map<Object, String> wrong = new LinkedHashMap<>();
            wrong.put(Map.of("services", List.of("nope"), "tiers", SLA.get("tiers")), "sla.services");
            wrong.put(Map.of("services", List.of(), "tiers", SLA.get("tiers")), "sla.services");
            wrong.put(Map.of("services", List.of("api", "api"), "tiers", SLA.get("tiers")), "sla.services");
            wrong.put(Map.of("services", List.of("api")), "sla.tiers");
            wrong.put(Map.of("services", List.of("api"), "tiers", List.of()), "sla.tiers");
            wrong.put(tiers(Map.of("below", 1, "creditPercent", 10)), "sla.tiers[0].below");
            wrong.put(tiers(Map.of("below", 0, "creditPercent", 10)), "sla.tiers[0].below");
            wrong.put(tiers(Map.of("below", "0.9", "creditPercent", 10)), "sla.tiers[0].below");
            wrong.put(tiers(Map.of("below", 0.9, "creditPercent", 0)), "sla.tiers[0].creditPercent");
            wrong.put(tiers(Map.of("below", 0.9, "creditPercent", 101)), "sla.tiers[0].creditPercent");
            wrong.put(tiers(Map.of("below", 0.9, "creditPercent", 10, "x", 1)), "sla.tiers[0].x");
            wrong.put(Map.of("services", List.of("api"), "tiers", SLA.get("tiers"), "extra", 1), "sla.extra");
            wrong.put("api", "sla");
            for (Map.Entry<Object, String> bad : wrong.entrySet()) {
                Reply reply = admin.post("/admin/plans", Map.of("id", "pro", "name", "Pro", "sla", bad.getKey()));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
                assertThat(reply.json().path("detail").asText()).contains("'" + bad.getValue() + "'");
                Reply update = admin.put("/admin/plans/free", Map.of("name", "Free", "sla", bad.getKey()));
                assertThat(update.status()).as(update.toString()).isEqualTo(400);
            }
            assertThat(admin.get("/admin/plans/pro").status()).isEqualTo(404);
            assertThat(admin.get("/admin/plans/free").json().path("sla").isNull())
                    .isTrue();
        }
    }

    @Test
    void withoutAnSlaTheCallerSeesNullAndThePreviewRefusesBadPlanIds() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            Fixtures fixtures = new Fixtures(node);
            Api caller = node.caller(fixtures.key(fixtures.account(0)));

            assertThat(caller.get("/api/tokens/sla").json().toString()).isEqualTo("{\"sla\":null}");
            assertThat(admin.get("/admin/sla/preview?planId=free")
                            .json()
                            .path("accounts")
                            .size())
                    .isZero();
            assertThat(admin.get("/admin/sla/preview").status()).isEqualTo(400);
            assertThat(admin.get("/admin/sla/preview?planId=Not%20a%20plan").status())
                    .isEqualTo(400);
            assertThat(admin.get("/admin/sla/preview?planId=a&planId=b").status())
                    .isEqualTo(400);
            assertThat(admin.get("/admin/sla/preview?planId=nope").code()).isEqualTo("plan_not_found");
            assertThat(caller.get("/admin/sla/preview?planId=free").status()).isEqualTo(403);
        }
    }

    private static Map<String, Object> tiers(Map<String, Object> tier) {
        return Map.of("services", List.of("api"), "tiers", List.of(tier));
    }

    static void service(Api admin, String id) {
        Reply reply = admin.put("/admin/services/" + id, Map.of("name", id, "status", "operational", "public", true));
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    }
}
