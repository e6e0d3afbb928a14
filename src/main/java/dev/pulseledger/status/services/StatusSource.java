package dev.pulseledger.status.services;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** What changed a service's status: an operator directly, or an incident or maintenance window by id. */
public record StatusSource(Kind kind, Optional<String> id) {
    /** The kinds of change, with their names in the history. */
    public enum Kind {
        OPERATOR,
        INCIDENT,
        MAINTENANCE,
        UPSTREAM,
        HEARTBEAT;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Kind> fromWire(String text) {
            return Arrays.stream(values()).filter(k -> k.wire().equals(text)).findFirst();
        }
    }

    public static final StatusSource OPERATOR = new StatusSource(Kind.OPERATOR, Optional.empty());

    /** The status page a service follows (CONTRACT §16). */
    public static final StatusSource UPSTREAM = new StatusSource(Kind.UPSTREAM, Optional.empty());

    /** A heartbeat missed, or back (CONTRACT §16). */
    public static final StatusSource HEARTBEAT = new StatusSource(Kind.HEARTBEAT, Optional.empty());

    public static StatusSource incident(String incidentId) {
        return new StatusSource(Kind.INCIDENT, Optional.of(incidentId));
    }

    public static StatusSource maintenance(String maintenanceId) {
        return new StatusSource(Kind.MAINTENANCE, Optional.of(maintenanceId));
    }
}
