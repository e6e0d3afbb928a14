package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SkippingClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.Waiting;
import dev.pulseledger.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One of everything a console path can name (an account with a key, a spend and a reservation, a webhook with a
 * delivery, an open incident, two scheduled maintenance windows, a plan, a service, a service group, two status
 * subscribers), by the name
 * of the path parameter that takes its id; and, for tests that ask, a draft incident.
 */
final class ConsoleFixtures {
    private ConsoleFixtures() {}

    /** Needs a node started with a short {@code --events-poll-ms}, so that the delivery arrives soon. */
    static Map<String, String> oneOfEach(TestNode node, WebhookReceiver receiver) {
        Map<String, String> ids = new LinkedHashMap<>();
        Api admin = node.admin();
        Fixtures fixtures = new Fixtures(node);
        admin.put("/admin/services/api", Map.of("name", "Public API", "status", "operational"));
        String webhookId = admin.post(
                        "/admin/webhooks", Map.of("url", receiver.url(), "events", List.of("service.status_changed")))
                .json()
                .get("id")
                .asText();
        admin.put("/admin/services/api", Map.of("name", "Public API", "status", "degraded_performance"));
        Fixtures.Caller caller = fixtures.caller(1_000);
        String keyId = admin.get("/admin/accounts/" + caller.accountId() + "/keys")
                .json()
                .at("/data/0/id")
                .asText();
        // Budgets (CONTRACT §14), so that the account page shows each with what the key used of it.
        assertThat(admin.patch(
                                "/admin/accounts/" + caller.accountId() + "/keys/" + keyId,
                                Map.of(
                                        "budgets",
                                        List.of(
                                                Map.of("period", "day", "tokens", 500),
                                                Map.of("period", "month", "tokens", 100_000))))
                        .status())
                .isEqualTo(200);
        assertThat(node.caller(caller.key()).post("/api/tokens/spend/10").status())
                .isEqualTo(201);
        assertThat(node.caller(caller.key())
                        .post("/api/tokens/reservations", Map.of("amount", 25))
                        .status())
                .isEqualTo(201);
        // A second credit grant: the revoke form is still on the page after the walk revokes one.
        assertThat(admin.post(
                                "/admin/accounts/" + caller.accountId() + "/credits",
                                Map.of("amount", 40, "reason", "goodwill"))
                        .status())
                .isEqualTo(201);
        ids.put("accountId", caller.accountId());
        ids.put(
                "grantId",
                admin.get("/admin/accounts/" + caller.accountId() + "/ledger")
                        .json()
                        .get("data")
                        .get(0)
                        .get("grantId")
                        .asText());
        ids.put("keyId", keyId);
        ids.put("webhookId", webhookId);
        Waiting.until(
                "a webhook delivery",
                () -> !admin.get("/admin/webhooks/" + webhookId + "/deliveries")
                        .json()
                        .get("data")
                        .isEmpty());
        ids.put(
                "deliveryId",
                admin.get("/admin/webhooks/" + webhookId + "/deliveries")
                        .json()
                        .get("data")
                        .get(0)
                        .get("id")
                        .asText());
        ids.put(
                "incidentId",
                admin.post(
                                "/admin/incidents",
                                Map.of(
                                        "title", "Slow answers",
                                        "impact", "minor",
                                        "status", "investigating",
                                        "message", "Looking.",
                                        "services", Map.of("api", "degraded_performance")))
                        .json()
                        .get("id")
                        .asText());
        for (String title : List.of("Database upgrade", "Network work")) {
            Instant start = Instant.now().plus(Duration.ofDays(1));
            ids.put(
                    "maintenanceId",
                    admin.post(
                                    "/admin/maintenances",
                                    Map.of(
                                            "title", title,
                                            "message", "Short pauses.",
                                            "services", List.of("api"),
                                            "startsAt", start.toString(),
                                            "endsAt",
                                                    start.plus(Duration.ofHours(1))
                                                            .toString()))
                            .json()
                            .get("id")
                            .asText());
        }
        ids.put("planId", "free");
        ids.put("serviceId", "api");
        // Two groups: a page walk that deletes one still finds the other's form.
        for (String groupId : List.of("core", "edge")) {
            assertThat(admin.post("/admin/service-groups", Map.of("id", groupId, "name", groupId, "position", 1))
                            .status())
                    .isEqualTo(201);
        }
        ids.put("groupId", "core");
        // Two status subscribers (webhooks need no mail server): a page walk that deletes one still finds the other.
        for (int i = 0; i < 2; i++) {
            Reply subscriber =
                    admin.post("/admin/status-subscribers", Map.of("url", receiver.url(), "services", List.of("api")));
            assertThat(subscriber.status()).isEqualTo(201);
            ids.put("subscriberId", subscriber.json().get("id").asText());
        }
        return ids;
    }

    /**
     * Draft incidents, opened the only way one is: each a heartbeat of a service of its own ({@code job-1}, …)
     * that goes silent past its grace (the clock skips it), so the incidents page shows publish and discard
     * forms. A page walk that publishes and discards, each twice, needs four.
     */
    static void draftIncidents(TestNode node, SkippingClock clock, int count) {
        Api admin = node.admin();
        for (int i = 1; i <= count; i++) {
            String serviceId = "job-" + i;
            admin.put("/admin/services/" + serviceId, Map.of("name", "Job " + i, "status", "operational"));
            assertThat(admin.post(
                                    "/admin/services/" + serviceId + "/heartbeat",
                                    Map.of("graceSeconds", 10, "statusWhenMissed", "major_outage"))
                            .status())
                    .isEqualTo(201);
        }
        clock.skip(Duration.ofSeconds(11));
        Waiting.until("each missed heartbeat opens a draft", () -> {
            int drafts = 0;
            for (JsonNode incident : admin.get("/admin/incidents").json().get("data")) {
                drafts += incident.get("draft").asBoolean() ? 1 : 0;
            }
            return drafts == count;
        });
    }
}
