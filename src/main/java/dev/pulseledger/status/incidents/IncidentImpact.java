package dev.pulseledger.status.incidents;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** How much an incident hurts, in Statuspage's words. */
public enum IncidentImpact {
    NONE,
    MINOR,
    MAJOR,
    CRITICAL;

    public static final String WIRE_VALUES = "none, minor, major, critical";

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<IncidentImpact> fromWire(String text) {
        return Arrays.stream(values()).filter(i -> i.wire().equals(text)).findFirst();
    }
}
