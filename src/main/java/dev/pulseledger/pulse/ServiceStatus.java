package dev.pulseledger.pulse;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The status vocabulary of Statuspage-compatible tools. */
public enum ServiceStatus {
    OPERATIONAL,
    DEGRADED_PERFORMANCE,
    PARTIAL_OUTAGE,
    MAJOR_OUTAGE,
    UNDER_MAINTENANCE,
    UNKNOWN;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ServiceStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(text)).findFirst();
    }
}
