package dev.pulseledger.status.groups;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.status.admin.ServiceGroupAdminRoutes;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.StatuspageSchema;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Service groups (CONTRACT §16) through every surface: the admin API, {@code GET /api/pulse}'s order
 * and roll-up, the Statuspage JSON's group components, and the page's collapsible groups.
 */
class ServiceGroupsTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void groupsRollUpTheWorstMemberStatusEverywhereAndKeepThePulseOrder(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), "--public-status-page")) {
            Api admin = node.admin();
            assertThat(admin.post(
                                    ServiceGroupAdminRoutes.PATH,
                                    Map.of("id", "core", "name", "Core <platform>", "position", 2))
                            .status())
                    .isEqualTo(201);
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "edge", "name", "Edge", "position", 1))
                            .status())
                    .isEqualTo(201);
            put(admin, "api", Map.of("name", "API", "spotlighted", true, "groupId", "core"));
            put(admin, "db", Map.of("name", "Database", "position", 1, "groupId", "core", "status", "partial_outage"));
            put(admin, "cdn", Map.of("name", "CDN", "position", 2, "groupId", "edge"));
            put(admin, "docs", Map.of("name", "Docs", "position", 3));

            JsonNode pulse = node.caller(new Fixtures(admin).caller(0).key())
                    .get("/api/pulse")
                    .json();
            assertThat(ids(pulse.get("services"))).containsExactly("api", "db", "cdn", "docs");
            assertThat(pulse.at("/services/0/groupId").asText()).isEqualTo("core");
            assertThat(pulse.at("/services/3/groupId").isNull()).isTrue();
            assertThat(ids(pulse.get("groups"))).containsExactly("edge", "core");
            assertThat(pulse.at("/groups/1/status").asText()).isEqualTo("partial_outage");
            assertThat(pulse.at("/groups/1/name").asText()).isEqualTo("Core <platform>");
            assertThat(texts(pulse.at("/groups/1/services"))).containsExactly("api", "db");
            assertThat(pulse.at("/groups/0/status").asText()).isEqualTo("operational");

            JsonNode summary =
                    node.anonymous().get("/status/api/v2/summary.json").json();
            assertThat(StatuspageSchema.violations("summary.json", summary)).isEmpty();
            Map<String, JsonNode> components = byId(summary.get("components"));
            assertThat(components.get("core").get("group").asBoolean()).isTrue();
            assertThat(components.get("core").get("status").asText()).isEqualTo("partial_outage");
            assertThat(texts(components.get("core").get("components"))).containsExactly("api", "db");
            assertThat(components.get("db").get("group_id").asText()).isEqualTo("core");
            assertThat(components.get("db").get("group").asBoolean()).isFalse();
            assertThat(components.get("docs").get("group_id").isNull()).isTrue();
            assertThat(components.get("docs").has("components")).isFalse();

            String page = node.anonymous().get("/status").text();
            assertThat(page)
                    .contains("<details class=\"service-group tone-partial-outage\" data-group=\"core\""
                            + " data-status=\"partial_outage\" open>")
                    .contains("Core &lt;platform&gt;")
                    .contains("<details class=\"service-group tone-operational\" data-group=\"edge\""
                            + " data-status=\"operational\">");
            assertThat(page.indexOf("data-group=\"edge\"")).isLessThan(page.indexOf("data-group=\"core\""));
            assertThat(page.indexOf("data-service=\"db\"")).isGreaterThan(page.indexOf("data-group=\"core\""));

            assertThat(admin.patch(ServiceGroupAdminRoutes.PATH + "/core", Map.of("position", 0))
                            .json()
                            .get("position")
                            .asInt())
                    .isZero();
            assertThat(admin.delete(ServiceGroupAdminRoutes.PATH + "/edge").status())
                    .isEqualTo(204);
            assertThat(admin.get("/admin/services/cdn").json().get("groupId").isNull())
                    .isTrue();
            assertThat(admin.get(ServiceGroupAdminRoutes.PATH + "/edge").code()).isEqualTo("service_group_not_found");
            assertThat(ids(admin.get(ServiceGroupAdminRoutes.PATH).json().get("data")))
                    .containsExactly("core");
            assertThat(admin.patch("/admin/services/api", Map.of("groupId", "edge"))
                            .code())
                    .isEqualTo("service_group_not_found");
            Map<String, Object> ungroup = new HashMap<>();
            ungroup.put("groupId", null);
            assertThat(admin.patch("/admin/services/api", ungroup)
                            .json()
                            .get("groupId")
                            .isNull())
                    .isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badGroupsAreRefusedAndChangeNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            put(admin, "api", Map.of("name", "API"));
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "Core!", "name", "x"))
                            .status())
                    .isEqualTo(400);
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "core", "name", " "))
                            .status())
                    .isEqualTo(400);
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "core", "name", "x", "colour", "red"))
                            .status())
                    .isEqualTo(400);
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "api", "name", "Clash"))
                            .code())
                    .isEqualTo("service_group_exists");
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "core", "name", "Core"))
                            .status())
                    .isEqualTo(201);
            assertThat(admin.post(ServiceGroupAdminRoutes.PATH, Map.of("id", "core", "name", "Again"))
                            .status())
                    .isEqualTo(409);
            assertThat(admin.patch(ServiceGroupAdminRoutes.PATH + "/nope", Map.of("name", "x"))
                            .status())
                    .isEqualTo(404);
            assertThat(admin.get(ServiceGroupAdminRoutes.PATH).json().get("data"))
                    .hasSize(1);
            assertThat(node.anonymous().get(ServiceGroupAdminRoutes.PATH).status())
                    .isEqualTo(401);
        }
    }

    private static void put(Api admin, String id, Map<String, Object> body) {
        Reply reply = admin.put("/admin/services/" + id, body);
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    }

    private static List<String> ids(JsonNode items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.get("id").asText()));
        return ids;
    }

    private static List<String> texts(JsonNode items) {
        List<String> texts = new ArrayList<>();
        items.forEach(item -> texts.add(item.asText()));
        return texts;
    }

    private static Map<String, JsonNode> byId(JsonNode items) {
        Map<String, JsonNode> map = new HashMap<>();
        items.forEach(item -> map.put(item.get("id").asText(), item));
        return map;
    }
}
