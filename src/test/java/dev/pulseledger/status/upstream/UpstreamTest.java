package dev.pulseledger.status.upstream;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Upstream services (CONTRACT §16): a node follows a component of another real Pulseledger node's
 * Statuspage JSON through a status change and an outage of that node; addresses and schemes a
 * server-side request forgery would use are refused, at write time and on every redirect.
 */
class UpstreamTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aServiceFollowsAnotherNodesStatusThroughAChangeAndItsOutage(TestStore store) {
        TestNode upstream = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page");
        try (TestNode node = TestNode.start(
                store.newDatabaseUrl(), "--upstream-allow-http", "127.0.0.1", "--upstream-poll-seconds", "5")) {
            upstream.admin().put("/admin/services/api", Map.of("name", "Public API", "status", "degraded_performance"));
            Api admin = node.admin();
            Reply created = admin.put(
                    "/admin/services/vendor",
                    Map.of(
                            "name",
                            "Vendor API",
                            "upstream",
                            Map.of(
                                    "url",
                                    upstream.baseUrl() + "/status/api/v2/summary.json",
                                    "component",
                                    "Public API")));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            assertThat(created.json().at("/upstream/component").asText()).isEqualTo("Public API");

            Waiting.until(
                    "the upstream's degraded status is followed",
                    () -> status(admin).equals("degraded_performance"));
            upstream.admin().patch("/admin/services/api", Map.of("status", "major_outage"));
            Waiting.until(
                    "the upstream's outage is followed", () -> status(admin).equals("major_outage"));
            JsonNode history =
                    admin.get("/admin/services/vendor/history").json().get("data");
            assertThat(history.get(0).at("/to").asText()).isEqualTo("major_outage");
            assertThat(history.get(0).at("/by/type").asText()).isEqualTo("upstream");
            assertThat(admin.get("/admin/services/vendor")
                            .json()
                            .at("/upstream/unreachableSince")
                            .isNull())
                    .isTrue();

            upstream.close();
            Waiting.until(
                    "operators see the upstream unreachable",
                    () -> !admin.get("/admin/services/vendor")
                            .json()
                            .at("/upstream/unreachableSince")
                            .isNull());
            JsonNode vendor = admin.get("/admin/services/vendor").json();
            assertThat(vendor.get("status").asText())
                    .as("the last status stays")
                    .isEqualTo("major_outage");
            assertThat(vendor.at("/upstream/lastError").asText()).startsWith("unreachable");

            Reply removed = admin.patch("/admin/services/vendor", nullUpstream());
            assertThat(removed.json().has("upstream")).isFalse();
        } finally {
            upstream.close();
        }
    }

    @Test
    void addressesAndSchemesOfARequestForgeryAreRefusedWhenWritten() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            for (String url : new String[] {
                "http://example.com/api/v2/summary.json",
                "https://127.0.0.1/api/v2/summary.json",
                "https://localhost/api/v2/summary.json",
                "https://169.254.169.254/latest/meta-data",
                "https://10.1.2.3/api/v2/summary.json",
                "https://[::1]/api/v2/summary.json",
                "https://[::ffff:127.0.0.1]/api/v2/summary.json",
                "file:///etc/passwd",
                "gopher://example.com/",
                "https://user:secret@example.com/summary.json"
            }) {
                Reply reply = admin.put(
                        "/admin/services/forged",
                        Map.of("name", "Forged", "upstream", Map.of("url", url, "component", "API")));
                assertThat(reply.status()).as(url + ": " + reply).isEqualTo(400);
                assertThat(reply.text()).contains("upstream");
            }
            assertThat(admin.get("/admin/services/forged").status()).isEqualTo(404);
        }
    }

    @Test
    void aRedirectToAPrivateAddressOrAnotherSchemeIsNotFollowed() throws IOException {
        HttpServer redirector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        redirector.createContext("/metadata", exchange -> {
            exchange.getResponseHeaders().add("Location", "http://169.254.169.254/latest/meta-data");
            exchange.sendResponseHeaders(302, -1);
            exchange.close();
        });
        redirector.createContext("/file", exchange -> {
            exchange.getResponseHeaders().add("Location", "file:///etc/passwd");
            exchange.sendResponseHeaders(301, -1);
            exchange.close();
        });
        redirector.start();
        String base = "http://127.0.0.1:" + redirector.getAddress().getPort();
        try (TestNode node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--upstream-allow-http",
                "127.0.0.1",
                "--upstream-poll-seconds",
                "5")) {
            Api admin = node.admin();
            for (String path : new String[] {"/metadata", "/file"}) {
                String id = "via" + path.substring(1);
                Reply reply = admin.put(
                        "/admin/services/" + id,
                        Map.of("name", id, "upstream", Map.of("url", base + path, "component", "API")));
                assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
                Waiting.until(
                        id + " refused",
                        () -> admin.get("/admin/services/" + id)
                                .json()
                                .at("/upstream/lastError")
                                .asText()
                                .startsWith("refused redirect"));
                assertThat(admin.get("/admin/services/" + id)
                                .json()
                                .get("status")
                                .asText())
                        .isEqualTo("operational");
            }
        } finally {
            redirector.stop(0);
        }
    }

    private static String status(Api admin) {
        return admin.get("/admin/services/vendor").json().get("status").asText();
    }

    private static Map<String, Object> nullUpstream() {
        Map<String, Object> body = new java.util.HashMap<>();
        body.put("upstream", null);
        return body;
    }
}
