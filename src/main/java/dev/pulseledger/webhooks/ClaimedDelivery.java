package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;

/**
 * A delivery a worker has claimed for one attempt: where to send what, and the secret to sign it
 * with. {@link #toString()} leaves the secret out, so a log line can never print it.
 */
record ClaimedDelivery(
        String deliveryId,
        int attempt,
        String url,
        String secret,
        String eventId,
        EventType eventType,
        String payload) {

    @Override
    public String toString() {
        return "ClaimedDelivery[" + deliveryId + ", attempt " + attempt + ", " + eventType.wire() + " " + eventId
                + " to " + url + "]";
    }
}
