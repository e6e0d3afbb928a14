package dev.pulseledger.status.subscribers;

import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One subscriber: an email address or an operator's webhook, with the services it follows (all of
 * them when {@code allServices}). An email subscriber is unconfirmed until its link is followed.
 */
public record Subscriber(
        long seq,
        String id,
        Kind kind,
        Optional<String> email,
        Optional<String> webhookId,
        Optional<String> url,
        boolean allServices,
        SortedSet<String> services,
        Instant createdAt,
        Optional<Instant> confirmedAt) {

    /** How a subscriber hears of notices. */
    public enum Kind {
        EMAIL,
        WEBHOOK;

        public String wire() {
            return this == EMAIL ? "email" : "webhook";
        }
    }

    public Subscriber {
        services = Collections.unmodifiableSortedSet(new TreeSet<>(services));
    }

    public boolean confirmed() {
        return confirmedAt.isPresent();
    }
}
