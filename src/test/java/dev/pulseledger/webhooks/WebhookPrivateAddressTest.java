package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import dev.pulseledger.support.WebhookReceiver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * No server-side request forgery through webhooks: a receiver whose host resolves to a private, loopback or
 * link-local address is refused when it is registered and before each delivery, unless
 * {@code --webhook-allow-private} allows it.
 */
class WebhookPrivateAddressTest {
    private static final String NOTHING_ALLOWED = "";

    @Test
    void receiversAtInternalAddressesAreRefusedWhenRegisteredAndNothingIsStored() {
        try (TestNode node =
                TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--webhook-allow-private", NOTHING_ALLOWED)) {
            Api admin = node.admin();
            for (String url : List.of(
                    "http://127.0.0.1:9/hooks",
                    "http://localhost:9/hooks",
                    "http://[::1]:9/hooks",
                    "http://10.1.2.3/hooks",
                    "http://192.168.0.7/hooks",
                    "http://169.254.169.254/latest/meta-data",
                    "http://[::ffff:127.0.0.1]/hooks",
                    "http://0.0.0.0/hooks")) {
                Reply webhook =
                        admin.post("/admin/webhooks", Map.of("url", url, "events", List.of("service.status_changed")));
                assertThat(webhook.status()).as(url).isEqualTo(400);
                assertThat(webhook.code()).as(url).isEqualTo("invalid_request");
                assertThat(webhook.json().path("detail").asText()).as(url).contains("'url'", "private");
                Reply subscriber = admin.post("/admin/status-subscribers", Map.of("url", url));
                assertThat(subscriber.status()).as(url).isEqualTo(400);
                assertThat(subscriber.json().path("detail").asText()).as(url).contains("private");
            }
            assertThat(admin.get("/admin/webhooks").json().path("data")).isEmpty();
            assertThat(admin.get("/admin/status-subscribers").json().path("data"))
                    .isEmpty();
        }
    }

    @Test
    void aStoredReceiverThatResolvesInsideIsNotSentTo() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (WebhookReceiver receiver = WebhookReceiver.start()) {
            String webhookId;
            // Registered on a node that allows loopback (the default of the tests' nodes) ...
            try (TestNode allowing = TestNode.start(url)) {
                Reply created = allowing.admin()
                        .post(
                                "/admin/webhooks",
                                Map.of("url", receiver.url(), "events", List.of("service.status_changed")));
                assertThat(created.status()).as(created.toString()).isEqualTo(201);
                webhookId = created.json().get("id").asText();
            }
            // ... then delivered by one that does not: the attempt is recorded as not sent, and nothing arrives.
            try (TestNode refusing = TestNode.start(url, "--webhook-allow-private", NOTHING_ALLOWED)) {
                Api admin = refusing.admin();
                admin.put("/admin/services/api", Map.of("name", "API", "status", "operational"));
                admin.put("/admin/services/api", Map.of("name", "API", "status", "major_outage"));
                Waiting.until(
                        "the delivery attempt is recorded",
                        () -> !attempts(admin, webhookId).isEmpty());
                JsonNode attempt = attempts(admin, webhookId).getFirst();
                assertThat(attempt.path("error").asText())
                        .startsWith("not sent: the host resolves to a private, loopback or link-local address");
                assertThat(attempt.path("statusCode").isNull()).isTrue();
                assertThat(receiver.next(Duration.ofMillis(500))).isEmpty();
            }
        }
    }

    private static List<JsonNode> attempts(Api admin, String webhookId) {
        List<JsonNode> attempts = new ArrayList<>();
        admin.get("/admin/webhooks/" + webhookId + "/deliveries")
                .json()
                .path("data")
                .forEach(delivery -> delivery.path("attempts").forEach(attempts::add));
        return attempts;
    }
}
