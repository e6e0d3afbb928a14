package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.svix.Webhook;
import com.svix.exceptions.WebhookVerificationException;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.WebhookReceiver;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Deliveries follow the Standard Webhooks specification: Svix's own verifier accepts them. */
class StandardWebhooksTest {
    @Test
    void aRealDeliveryVerifiesWithSvixAndATamperedOneDoesNot() throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--events-poll-ms", "50")) {
            Reply created = node.admin()
                    .post(
                            "/admin/webhooks",
                            Map.of("url", receiver.url(), "events", List.of("service.status_changed")));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            String secret = created.json().path("secret").asText();
            assertThat(secret).matches("whsec_[A-Za-z0-9+/]{43}=");
            assertThat(node.admin()
                            .put("/admin/services/api", Map.of("name", "API", "status", "operational"))
                            .status())
                    .isEqualTo(201);
            assertThat(node.admin()
                            .patch("/admin/services/api", Map.of("status", "major_outage"))
                            .status())
                    .isEqualTo(200);

            WebhookReceiver.Received delivery = receiver.next();
            Map<String, List<String>> headers = lowerCased(delivery.headers());
            new Webhook(secret).verify(delivery.body(), headers);

            assertThat(delivery.header("webhook-id"))
                    .startsWith("evt_")
                    .isEqualTo(delivery.header("Pulseledger-Event-Id"));
            assertThat(Long.parseLong(delivery.header("webhook-timestamp")))
                    .isCloseTo(Instant.now().getEpochSecond(), within(300L));
            assertThat(delivery.header("webhook-signature")).startsWith("v1,");

            String tampered = delivery.body().replace("major_outage", "operational");
            assertThatThrownBy(() -> new Webhook(secret).verify(tampered, headers))
                    .isInstanceOf(WebhookVerificationException.class);
        }
    }

    @Test
    void aSecretIssuedBeforeTheStandardStillSignsDeliveriesSvixAccepts() throws Exception {
        // Secrets used to be whsec_ and 32 base-62 characters: valid base64, so they stay valid keys.
        String oldSecret = "whsec_9Qm3kT0vYc5Lr2Xw8Hn4Bf7Jd1Sa6Pz0";
        long now = Instant.now().getEpochSecond();
        String body = "{\"id\":\"evt_1\",\"type\":\"balance.low\"}";
        Map<String, List<String>> headers = Map.of(
                "webhook-id", List.of("evt_1"),
                "webhook-timestamp", List.of(Long.toString(now)),
                "webhook-signature", List.of(WebhookSignature.standard(oldSecret, "evt_1", now, body)));
        new Webhook(oldSecret).verify(body, headers);
        assertThat(WebhookSignature.standard(oldSecret, "evt_1", now, body))
                .isEqualTo(new Webhook(oldSecret).sign("evt_1", now, body));
    }

    private static Map<String, List<String>> lowerCased(Map<String, List<String>> headers) {
        Map<String, List<String>> lower = new TreeMap<>();
        headers.forEach((name, values) -> lower.put(name.toLowerCase(Locale.ROOT), values));
        return lower;
    }
}
