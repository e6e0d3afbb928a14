package dev.pulseledger.status.services;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The status vocabulary of Statuspage-compatible tools. */
public enum ServiceStatus {
    OPERATIONAL(0),
    DEGRADED_PERFORMANCE(3),
    PARTIAL_OUTAGE(4),
    MAJOR_OUTAGE(5),
    UNDER_MAINTENANCE(2),
    UNKNOWN(1);

    /** Every wire value, for messages that list them. */
    public static final String WIRE_VALUES =
            "operational, degraded_performance, partial_outage, major_outage, under_maintenance, unknown";

    private final int severity;

    ServiceStatus(int severity) {
        this.severity = severity;
    }

    /** How grave the status is: the page's summary and a day's worst status take the highest. */
    public int severity() {
        return severity;
    }

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<ServiceStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(text)).findFirst();
    }
}
