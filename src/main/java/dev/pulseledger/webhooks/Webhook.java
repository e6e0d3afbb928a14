package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import java.time.Instant;
import java.util.Set;

/** An operator's endpoint and the event types it receives; its signing secret is kept apart. */
public record Webhook(String id, String url, String description, Set<EventType> events, Instant createdAt) {
    public Webhook {
        events = Set.copyOf(events);
    }
}
