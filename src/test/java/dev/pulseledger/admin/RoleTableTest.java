package dev.pulseledger.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RoleRules;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Role;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Walks every registered admin route with a key of every role and checks the answer against ONE table,
 * written from CONTRACT §17 here and not from the code: a role the table allows is never refused for its
 * role, any other gets 403 {@code forbidden_for_role}. A new admin route whose area is not in the
 * table fails this test, so whoever adds one declares who may call it.
 */
class RoleTableTest {
    /** Who changes what lies under each prefix (besides the owner), and whether viewers may read it. */
    private record Area(Set<Role> writers, boolean everyoneReads) {}

    private static final Area BILLING = new Area(Set.of(Role.BILLING), true);
    private static final Area STATUS = new Area(Set.of(Role.STATUS), true);
    /** Reads show secret URLs or subscribers' addresses. */
    private static final Area STATUS_SECRET = new Area(Set.of(Role.STATUS), false);

    private static final Area OWNER_READ_BY_ALL = new Area(Set.of(), true);
    private static final Area OWNER_ONLY = new Area(Set.of(), false);

    /** The table: CONTRACT §17's roles by the admin API's areas. The longest matching prefix applies. */
    private static final Map<String, Area> TABLE = Map.ofEntries(
            Map.entry("/admin/accounts", BILLING),
            Map.entry("/admin/plans", BILLING),
            Map.entry("/admin/keys", BILLING),
            Map.entry("/admin/reservations", BILLING),
            Map.entry("/admin/credits", BILLING),
            Map.entry("/admin/grants", BILLING),
            Map.entry("/admin/usage", BILLING),
            Map.entry("/admin/sla", BILLING),
            Map.entry("/admin/services", STATUS),
            Map.entry("/admin/service-groups", STATUS),
            Map.entry("/admin/incidents", STATUS),
            Map.entry("/admin/maintenances", STATUS),
            Map.entry("/admin/maintenance", STATUS),
            Map.entry("/admin/services/{}/heartbeat", STATUS_SECRET),
            Map.entry("/admin/heartbeats", STATUS_SECRET),
            Map.entry("/admin/status-subscribers", STATUS_SECRET),
            Map.entry("/admin/webhooks", OWNER_ONLY),
            Map.entry("/admin/operators", OWNER_READ_BY_ALL),
            Map.entry("/admin/audit", OWNER_READ_BY_ALL));

    @Test
    void everyAdminRouteAnswersEveryRoleAsTheTableSays() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Map<Role, Api> keys = keysByRole(node);
            List<RouteTable.Route> adminRoutes = node.application().routes().stream()
                    .filter(route -> route.pathTemplate().startsWith(RouteTable.ADMIN_PREFIX))
                    .toList();
            assertThat(adminRoutes).hasSizeGreaterThan(30);

            SoftAssertions softly = new SoftAssertions();
            for (RouteTable.Route route : adminRoutes) {
                Optional<Area> area = area(route.pathTemplate());
                softly.assertThat(area)
                        .as("%s has a row in this test's table", route.pathTemplate())
                        .isPresent();
                softly.assertThat(RoleRules.declared(route.pathTemplate()))
                        .as("%s declares its role in RoleRules", route.pathTemplate())
                        .isPresent();
                if (area.isEmpty()) {
                    continue;
                }
                String path = route.pathTemplate().replaceAll("\\{[^/]+}", "x1");
                boolean reads = route.method().equals("GET") || route.method().equals("HEAD");
                for (Role role : Role.values()) {
                    boolean allowed = role == Role.OWNER
                            || area.get().writers().contains(role)
                            || (reads && area.get().everyoneReads());
                    Reply reply = keys.get(role).send(route.method(), path, reads ? null : "{}", Map.of());
                    if (allowed) {
                        softly.assertThat(
                                        reply.status() == 403 && !route.method().equals("HEAD")
                                                ? reply.code()
                                                : "not refused for the role")
                                .as("%s %s as %s", route.method(), path, role)
                                .isNotEqualTo("forbidden_for_role");
                        softly.assertThat(reply.status())
                                .as("%s %s as %s", route.method(), path, role)
                                .isNotEqualTo(401);
                    } else {
                        softly.assertThat(reply.status())
                                .as("%s %s as %s", route.method(), path, role)
                                .isEqualTo(403);
                        if (!route.method().equals("HEAD")) {
                            softly.assertThat(reply.code())
                                    .as("%s %s as %s", route.method(), path, role)
                                    .isEqualTo("forbidden_for_role");
                        }
                    }
                }
            }
            softly.assertAll();
        }
    }

    /** One operator of each role (the owner is the first one, with the configured key), each with a key. */
    static Map<Role, Api> keysByRole(TestNode node) {
        Map<Role, Api> keys = new EnumMap<>(Role.class);
        keys.put(Role.OWNER, node.admin());
        for (Role role : List.of(Role.BILLING, Role.STATUS, Role.VIEWER)) {
            String id = node.admin()
                    .post(
                            "/admin/operators",
                            Map.of(
                                    "name",
                                    role.text() + " person",
                                    "email",
                                    role.text() + "@example.com",
                                    "role",
                                    role.text()))
                    .json()
                    .path("id")
                    .asText();
            String key = node.admin()
                    .post("/admin/operators/" + id + "/keys", Map.of())
                    .json()
                    .path("key")
                    .asText();
            keys.put(role, node.caller(key));
        }
        return keys;
    }

    private static Optional<Area> area(String template) {
        String path = template.replaceAll("\\{[^/}]*}", "{}");
        return TABLE.entrySet().stream()
                .filter(row -> path.equals(row.getKey()) || path.startsWith(row.getKey() + "/"))
                .max(Map.Entry.comparingByKey((a, b) -> Integer.compare(a.length(), b.length())))
                .map(Map.Entry::getValue);
    }
}
