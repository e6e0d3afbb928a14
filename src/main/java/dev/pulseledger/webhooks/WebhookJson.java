package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import dev.pulseledger.http.Times;
import java.util.LinkedHashMap;
import java.util.Map;

/** JSON shapes of webhooks and their delivery log in the operator API. */
final class WebhookJson {
    private WebhookJson() {}

    static Map<String, Object> webhook(Webhook webhook) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", webhook.id());
        body.put("url", webhook.url());
        body.put("description", webhook.description());
        body.put(
                "events",
                webhook.events().stream().map(EventType::wire).sorted().toList());
        body.put("createdAt", Times.format(webhook.createdAt()));
        return body;
    }

    static Map<String, Object> delivery(Delivery delivery) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", delivery.id());
        body.put("eventId", delivery.eventId());
        body.put("eventType", delivery.eventType().wire());
        body.put("status", delivery.status().wire());
        body.put("attemptCount", delivery.attemptCount());
        body.put("nextAttemptAt", delivery.nextAttemptAt().map(Times::format).orElse(null));
        body.put("createdAt", Times.format(delivery.createdAt()));
        body.put("finishedAt", delivery.finishedAt().map(Times::format).orElse(null));
        body.put(
                "attempts",
                delivery.attempts().stream().map(WebhookJson::attempt).toList());
        return body;
    }

    private static Map<String, Object> attempt(Delivery.Attempt attempt) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("attempt", attempt.number());
        body.put("startedAt", Times.format(attempt.startedAt()));
        body.put("durationMs", attempt.durationMillis());
        body.put("statusCode", attempt.statusCode().orElse(null));
        body.put("error", attempt.error().orElse(null));
        return body;
    }
}
