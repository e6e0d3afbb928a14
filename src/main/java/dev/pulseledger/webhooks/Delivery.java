package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** One event's delivery to one webhook, with every attempt made so far: the operator's log. */
public record Delivery(
        long sequence,
        String id,
        String eventId,
        EventType eventType,
        DeliveryStatus status,
        int attemptCount,
        Optional<Instant> nextAttemptAt,
        Instant createdAt,
        Optional<Instant> finishedAt,
        List<Attempt> attempts) {

    public Delivery {
        attempts = List.copyOf(attempts);
    }

    /** One HTTP request made for a delivery and what came of it. */
    public record Attempt(
            int number, Instant startedAt, long durationMillis, Optional<Integer> statusCode, Optional<String> error) {

        public boolean succeeded() {
            return statusCode.filter(code -> code >= 200 && code < 300).isPresent();
        }
    }
}
