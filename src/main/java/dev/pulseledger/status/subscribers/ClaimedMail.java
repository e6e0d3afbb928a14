package dev.pulseledger.status.subscribers;

import java.time.Instant;
import java.util.Optional;

/** A mail one node has claimed to send: to whom, which kind, and for a notice what it says (as JSON). */
record ClaimedMail(
        String id,
        String subscriberId,
        String email,
        String kind,
        int attempt,
        Instant createdAt,
        Optional<String> noticePayload) {

    /** Never the address: it is personal data, kept out of logs. */
    @Override
    public String toString() {
        return "mail " + id + " (" + kind + ", attempt " + attempt + ")";
    }
}
