package dev.pulseledger.status.incidents;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The steps of a maintenance window, each taken once, in this order. */
public enum MaintenanceStatus {
    SCHEDULED,
    IN_PROGRESS,
    COMPLETED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<MaintenanceStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(text)).findFirst();
    }
}
