package dev.pulseledger.webhooks;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.events.EventType;
import dev.pulseledger.http.Times;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** JSON shapes of webhooks and their delivery log in the operator API. */
final class WebhookJson {
    private WebhookJson() {}

    record WebhookBody(String id, String url, String description, List<String> events, String createdAt) {}

    /** A new webhook with its signing secret, shown this once: the webhook's fields, then {@code secret}. */
    record NewWebhookBody(@JsonUnwrapped WebhookBody webhook, String secret) {}

    record DeliveryBody(
            String id,
            String eventId,
            String eventType,
            String status,
            int attemptCount,
            @Nullable String nextAttemptAt,
            String createdAt,
            @Nullable String finishedAt,
            List<AttemptBody> attempts) {}

    record AttemptBody(
            int attempt,
            String startedAt,
            long durationMs,
            @Nullable Integer statusCode,
            @Nullable String error) {}

    static WebhookBody webhook(Webhook webhook) {
        return new WebhookBody(
                webhook.id(),
                webhook.url(),
                webhook.description(),
                webhook.events().stream().map(EventType::wire).sorted().toList(),
                Times.format(webhook.createdAt()));
    }

    static DeliveryBody delivery(Delivery delivery) {
        return new DeliveryBody(
                delivery.id(),
                delivery.eventId(),
                delivery.eventType().wire(),
                delivery.status().wire(),
                delivery.attemptCount(),
                delivery.nextAttemptAt().map(Times::format).orElse(null),
                Times.format(delivery.createdAt()),
                delivery.finishedAt().map(Times::format).orElse(null),
                delivery.attempts().stream().map(WebhookJson::attempt).toList());
    }

    private static AttemptBody attempt(Delivery.Attempt attempt) {
        return new AttemptBody(
                attempt.number(),
                Times.format(attempt.startedAt()),
                attempt.durationMillis(),
                attempt.statusCode().orElse(null),
                attempt.error().orElse(null));
    }
}
