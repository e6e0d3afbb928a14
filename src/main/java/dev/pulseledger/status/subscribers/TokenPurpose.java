package dev.pulseledger.status.subscribers;

import java.util.Locale;

/** What a link's token may do: each token is good for one of these only. */
enum TokenPurpose {
    CONFIRM,
    MANAGE,
    UNSUBSCRIBE;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }
}
