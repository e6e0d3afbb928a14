package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import dev.pulseledger.support.WebhookReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WebhookDeliveryTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fast retries, so that a test sees several attempts at once. */
    private static final String[] FAST_RETRIES = {"--webhook-retry-base-ms", "20", "--events-poll-ms", "50"};

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aDeliveryCarriesTheEnvelopeAndASignatureTheReceiverCanVerify(TestStore store) throws Exception {
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestNode node = TestNode.start(store.newDatabaseUrl(), FAST_RETRIES)) {
            putService(node, "api", "operational");
            String secret = register(node, receiver, "service.status_changed")
                    .path("secret")
                    .asText();
            assertThat(secret).startsWith("whsec_");

            setStatus(node, "api", "major_outage");

            WebhookReceiver.Received request = receiver.next();
            assertThat(verifies(secret, request)).isTrue();
            assertThat(verifies(secret.replace('a', 'b') + "x", request)).isFalse();
            JsonNode envelope = JSON.readTree(request.body());
            assertThat(envelope.path("id").asText()).startsWith("evt_");
            assertThat(envelope.path("type").asText()).isEqualTo("service.status_changed");
            assertThat(Instant.parse(envelope.path("createdAt").asText())).isNotNull();
            JsonNode data = envelope.path("data");
            assertThat(data.path("serviceId").asText()).isEqualTo("api");
            assertThat(data.path("oldStatus").asText()).isEqualTo("operational");
            assertThat(data.path("newStatus").asText()).isEqualTo("major_outage");
            assertThat(request.header("Pulseledger-Event-Id"))
                    .isEqualTo(envelope.path("id").asText());
            assertThat(request.header("Pulseledger-Event-Type")).isEqualTo("service.status_changed");
            assertThat(request.header("Content-Type")).isEqualTo("application/json");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aReceiverThatFailsTwiceGetsTheEventOncePerRetryAndThenOnceSuccessfully(TestStore store) {
        try (WebhookReceiver receiver = WebhookReceiver.start().answering(500, 503);
                TestNode node = TestNode.start(store.newDatabaseUrl(), FAST_RETRIES)) {
            putService(node, "api", "operational");
            String webhookId = registerId(node, receiver, "service.status_changed");

            setStatus(node, "api", "degraded_performance");

            List<WebhookReceiver.Received> requests = List.of(receiver.next(), receiver.next(), receiver.next());
            assertThat(requests)
                    .extracting(WebhookReceiver.Received::body)
                    .containsOnly(requests.getFirst().body());
            assertThat(requests)
                    .extracting(r -> r.header("Pulseledger-Delivery-Attempt"))
                    .containsExactly("1", "2", "3");
            JsonNode delivery = awaitDelivered(node, webhookId);
            assertThat(delivery.path("attemptCount").asInt()).isEqualTo(3);
            assertThat(delivery.path("nextAttemptAt").isNull()).isTrue();
            assertThat(delivery.path("attempts").findValuesAsText("statusCode")).containsExactly("500", "503", "200");
            assertThat(delivery.path("attempts").get(0).path("error").asText()).contains("500");

            // The next request must be a new event, not a fourth copy of the delivered one.
            setStatus(node, "api", "operational");
            assertThat(receiver.next().body()).contains("\"newStatus\":\"operational\"");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anEventSurvivesARestartBetweenTheChangeAndItsDelivery(TestStore store) {
        String url = store.newDatabaseUrl();
        try (WebhookReceiver receiver = WebhookReceiver.start()) {
            receiver.answerByDefault(503);
            String webhookId;
            String eventId;
            try (TestNode first = TestNode.start(url, FAST_RETRIES)) {
                putService(first, "api", "operational");
                webhookId = registerId(first, receiver, "service.status_changed");
                setStatus(first, "api", "under_maintenance");
                eventId = receiver.next().header("Pulseledger-Event-Id");
            }
            receiver.drain();
            receiver.answerByDefault(200);
            try (TestNode second = TestNode.start(url, FAST_RETRIES)) {
                awaitDelivered(second, webhookId);
                List<WebhookReceiver.Received> requests = receiver.drain();
                assertThat(requests).isNotEmpty();
                assertThat(requests.getLast().header("Pulseledger-Event-Id")).isEqualTo(eventId);
                assertThat(requests.getLast().body()).contains("\"newStatus\":\"under_maintenance\"");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void settingAStatusToItsCurrentValueRaisesNoEvent(TestStore store) {
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestNode node = TestNode.start(store.newDatabaseUrl(), FAST_RETRIES)) {
            putService(node, "api", "partial_outage");
            String webhookId = registerId(node, receiver, "service.status_changed");

            setStatus(node, "api", "partial_outage");
            putService(node, "api", "partial_outage");
            setStatus(node, "api", "operational");

            assertThat(receiver.next().body())
                    .contains("\"oldStatus\":\"partial_outage\"", "\"newStatus\":\"operational\"");
            Waiting.until(
                    "the delivery is logged", () -> deliveries(node, webhookId).size() == 1);
            assertThat(deliveries(node, webhookId)).hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void balanceLowFiresOnceWhenASpendTakesTheBalanceBelowTheThreshold(TestStore store) {
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestNode node = TestNode.start(store.newDatabaseUrl(), FAST_RETRIES)) {
            Reply plan =
                    node.admin().put("/admin/plans/free/low-balance-threshold", Map.of("lowBalanceThreshold", 500));
            assertThat(plan.status()).as(plan.toString()).isEqualTo(200);
            register(node, receiver, "balance.low");
            Fixtures.Caller caller = new Fixtures(node).caller(1000);

            spend(node, caller, 400); // 600: still above
            spend(node, caller, 200); // 400: crosses 500
            spend(node, caller, 100); // 300: already below

            JsonNode event = body(receiver.next());
            assertThat(event.path("type").asText()).isEqualTo("balance.low");
            assertThat(event.path("data").path("accountId").asText()).isEqualTo(caller.accountId());
            assertThat(event.path("data").path("balance").asLong()).isEqualTo(400);
            assertThat(event.path("data").path("previousBalance").asLong()).isEqualTo(600);
            assertThat(event.path("data").path("threshold").asLong()).isEqualTo(500);

            // An account's own threshold overrides its plan's.
            Reply own = node.admin()
                    .put(
                            "/admin/accounts/" + caller.accountId() + "/low-balance-threshold",
                            Map.of("lowBalanceThreshold", 250));
            assertThat(own.json().path("effectiveLowBalanceThreshold").asLong()).isEqualTo(250);
            spend(node, caller, 100); // 200: crosses 250

            JsonNode second = body(receiver.next());
            assertThat(second.path("data").path("balance").asLong()).isEqualTo(200);
            assertThat(second.path("data").path("threshold").asLong()).isEqualTo(250);
            assertThat(second.path("data").path("spendingId").asText()).startsWith("sp_");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoNodesDeliverEveryEventExactlyOnce(TestStore store) {
        String url = store.newDatabaseUrl();
        int changes = 12;
        try (WebhookReceiver receiver = WebhookReceiver.start();
                TestNode a = TestNode.start(url, FAST_RETRIES);
                TestNode b = TestNode.start(url, FAST_RETRIES)) {
            putService(a, "api", "operational");
            String webhookId = registerId(a, receiver, "service.status_changed");
            for (int i = 0; i < changes; i++) {
                setStatus(i % 2 == 0 ? a : b, "api", i % 2 == 0 ? "major_outage" : "operational");
            }
            Waiting.until(
                    "every delivery is delivered",
                    () -> deliveries(a, webhookId).stream()
                                    .filter(d -> d.path("status").asText().equals("delivered"))
                                    .count()
                            == changes);
            List<WebhookReceiver.Received> requests = receiver.drain();
            Set<String> eventIds = new HashSet<>();
            requests.forEach(r -> eventIds.add(r.header("Pulseledger-Event-Id")));
            assertThat(requests).hasSize(changes);
            assertThat(eventIds).hasSize(changes);
        }
    }

    /** Verifies a delivery the way docs/WEBHOOKS.md tells receivers to. */
    private static boolean verifies(String secret, WebhookReceiver.Received request) throws Exception {
        String header = request.header("Pulseledger-Signature");
        String timestamp = null;
        List<String> signatures = new ArrayList<>();
        for (String part : header.split(",", -1)) {
            String[] pair = part.split("=", 2);
            if (pair[0].equals("t")) {
                timestamp = pair[1];
            } else if (pair[0].equals("v1")) {
                signatures.add(pair[1]);
            }
        }
        if (timestamp == null || Math.abs(Instant.now().getEpochSecond() - Long.parseLong(timestamp)) > 300) {
            return false;
        }
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] expected = mac.doFinal((timestamp + "." + request.body()).getBytes(StandardCharsets.UTF_8));
        return signatures.stream()
                .anyMatch(s -> MessageDigest.isEqual(expected, HexFormat.of().parseHex(s)));
    }

    private static String registerId(TestNode node, WebhookReceiver receiver, String... events) {
        return register(node, receiver, events).path("id").asText();
    }

    private static JsonNode register(TestNode node, WebhookReceiver receiver, String... events) {
        Reply reply = node.admin().post("/admin/webhooks", Map.of("url", receiver.url(), "events", List.of(events)));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json();
    }

    private static List<JsonNode> deliveries(TestNode node, String webhookId) {
        Reply reply = node.admin().get("/admin/webhooks/" + webhookId + "/deliveries?limit=100");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        List<JsonNode> deliveries = new ArrayList<>();
        reply.json().path("data").forEach(deliveries::add);
        return deliveries;
    }

    /** Waits until the webhook's one delivery is logged as delivered, and returns it. */
    private static JsonNode awaitDelivered(TestNode node, String webhookId) {
        Waiting.until(
                "the delivery is logged as delivered",
                () -> onlyDelivery(node, webhookId).path("status").asText().equals("delivered"));
        return onlyDelivery(node, webhookId);
    }

    private static JsonNode onlyDelivery(TestNode node, String webhookId) {
        List<JsonNode> deliveries = deliveries(node, webhookId);
        assertThat(deliveries).hasSize(1);
        return deliveries.getFirst();
    }

    private static JsonNode body(WebhookReceiver.Received request) {
        try {
            return JSON.readTree(request.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void spend(TestNode node, Fixtures.Caller caller, long amount) {
        Reply reply = node.caller(caller.key()).post("/api/tokens/spend/" + amount);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }

    private static void putService(TestNode node, String id, String status) {
        Reply reply = node.admin().put("/admin/services/" + id, Map.of("name", "Service " + id, "status", status));
        assertThat(reply.status()).as(reply.toString()).isIn(200, 201);
    }

    private static void setStatus(TestNode node, String id, String status) {
        Reply reply = node.admin().patch("/admin/services/" + id, Map.of("status", status));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }
}
