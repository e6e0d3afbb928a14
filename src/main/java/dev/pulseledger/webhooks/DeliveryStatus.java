package dev.pulseledger.webhooks;

import java.util.Locale;

/** Where a delivery stands: waiting for an attempt, delivered, or given up after the last attempt. */
public enum DeliveryStatus {
    PENDING,
    DELIVERED,
    FAILED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static DeliveryStatus fromWire(String text) {
        return valueOf(text.toUpperCase(Locale.ROOT));
    }
}
