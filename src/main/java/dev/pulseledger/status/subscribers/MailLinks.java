package dev.pulseledger.status.subscribers;

import java.util.Optional;

/** The tokens one mail's links carry: a confirmation's, or a subscriber's manage and unsubscribe tokens. */
record MailLinks(Optional<String> confirm, Optional<String> manage, Optional<String> unsubscribe) {
    static MailLinks confirmation(String token) {
        return new MailLinks(Optional.of(token), Optional.empty(), Optional.empty());
    }

    static MailLinks subscriber(String manage, String unsubscribe) {
        return new MailLinks(Optional.empty(), Optional.of(manage), Optional.of(unsubscribe));
    }

    /** Tokens are secrets: never in a log line. */
    @Override
    public String toString() {
        return "MailLinks[hidden]";
    }
}
