package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RoleRules;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Role;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * A viewer reads everything but secrets and subscribers' addresses (CONTRACT §17): through every admin
 * read, with real ids, no key, webhook URL or signing secret shows; the console hides what the role may
 * not do and the server refuses it anyway.
 */
class ViewerSeesNoSecretsTest {
    private static final String PASSWORD = "correct horse battery staple";
    private static final String SECRET_URL = "https://hooks.example.com/services/T0KEN-secret-path";

    @Test
    void aViewerNeverSeesAKeyASecretUrlOrASubscribersAddress() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api owner = node.admin();
            Fixtures.Caller caller = new Fixtures(node).caller(100);
            Reply webhook = owner.post("/admin/webhooks", Map.of("url", SECRET_URL, "events", List.of("balance.low")));
            assertThat(webhook.status()).isEqualTo(201);
            String viewerId = owner.post(
                            "/admin/operators",
                            Map.of(
                                    "name",
                                    "Vera Viewer",
                                    "email",
                                    "vera@example.com",
                                    "role",
                                    "viewer",
                                    "password",
                                    PASSWORD))
                    .json()
                    .path("id")
                    .asText();
            String viewerKey = owner.post("/admin/operators/" + viewerId + "/keys", Map.of())
                    .json()
                    .path("key")
                    .asText();
            Api viewer = node.caller(viewerKey);
            Map<String, String> ids = Map.of(
                    "{accountId}", caller.accountId(),
                    "{webhookId}", webhook.json().path("id").asText(),
                    "{operatorId}", viewerId);
            List<String> secrets = List.of(caller.key(), viewerKey, TestNode.ADMIN_KEY, SECRET_URL, "T0KEN", "whsec_");

            SoftAssertions softly = new SoftAssertions();
            for (RouteTable.Route route : node.application().routes()) {
                if (!route.method().equals("GET") || !route.pathTemplate().startsWith(RouteTable.ADMIN_PREFIX)) {
                    continue;
                }
                String path = route.pathTemplate();
                for (Map.Entry<String, String> id : ids.entrySet()) {
                    path = path.replace(id.getKey(), id.getValue());
                }
                path = path.replaceAll("\\{[^/]+}", "x1");
                Reply reply = viewer.get(path);
                for (String secret : secrets) {
                    softly.assertThat(reply.text())
                            .as("GET %s as a viewer", path)
                            .doesNotContain(secret);
                }
            }
            softly.assertAll();
            assertThat(viewer.get("/admin/webhooks").code()).isEqualTo("forbidden_for_role");
            assertThat(RoleRules.forTemplate("/admin/status-subscribers").allows(Role.VIEWER, "GET"))
                    .as("subscribers' addresses are not a viewer's to read")
                    .isFalse();
            assertThat(RoleRules.forTemplate("/admin/services/{serviceId}/heartbeat")
                            .allows(Role.VIEWER, "GET"))
                    .as("a heartbeat's secret URL is not a viewer's to read")
                    .isFalse();

            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn("vera@example.com", PASSWORD, "").statusCode())
                    .isEqualTo(303);
            String accountPage =
                    console.get("/console/accounts/" + caller.accountId()).body();
            assertThat(accountPage)
                    .contains("Vera Viewer")
                    .doesNotContain(caller.key())
                    .doesNotContain("/credits\"")
                    .doesNotContain("Issue key");
            assertThat(console.get("/console").body()).doesNotContain("/console/webhooks\"");
            assertThat(console.get("/console/webhooks").statusCode()).isEqualTo(403);
            String before = owner.get("/admin/plans").text();
            assertThat(console.submit("/console/plans", "/console/plans", Map.of("id", "sneaky", "name", "Sneaky"))
                            .statusCode())
                    .isEqualTo(403);
            assertThat(owner.get("/admin/plans").text()).isEqualTo(before);

            ConsoleClient ownerConsole = new ConsoleClient(node.baseUrl());
            ownerConsole.signIn(TestNode.ADMIN_KEY);
            assertThat(ownerConsole
                            .get("/console/accounts/" + caller.accountId())
                            .body())
                    .contains("/credits\"")
                    .contains("Issue key");
            assertThat(ownerConsole.get("/console/audit").body()).contains("POST /admin/operators");
        }
    }
}
