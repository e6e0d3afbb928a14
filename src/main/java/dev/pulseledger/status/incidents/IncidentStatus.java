package dev.pulseledger.status.incidents;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** Where an incident stands, in Statuspage's words; every status but resolved is active. */
public enum IncidentStatus {
    INVESTIGATING,
    IDENTIFIED,
    MONITORING,
    RESOLVED;

    public static final String WIRE_VALUES = "investigating, identified, monitoring, resolved";

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean isActive() {
        return this != RESOLVED;
    }

    public static Optional<IncidentStatus> fromWire(String text) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(text)).findFirst();
    }
}
