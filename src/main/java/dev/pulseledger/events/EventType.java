package dev.pulseledger.events;

import java.util.Arrays;
import java.util.Optional;

/** The kinds of event Pulseledger records in its outbox, with their names on the wire. */
public enum EventType {
    SERVICE_STATUS_CHANGED("service.status_changed"),
    INCIDENT_CREATED("incident.created"),
    INCIDENT_UPDATED("incident.updated"),
    BALANCE_LOW("balance.low"),
    ALLOWANCE_RENEWED("allowance.renewed"),
    CREDITS_EXPIRED("credits.expired"),
    RESERVATION_EXPIRED("reservation.expired"),
    SLA_CREDITED("sla.credited"),
    KEY_BUDGET_WARNING("key.budget_warning"),
    KEY_BUDGET_EXHAUSTED("key.budget_exhausted"),
    PLAN_CHANGED("plan.changed"),
    PLAN_CHANGE_SCHEDULED("plan.change_scheduled"),
    // What status subscribers hear of (CONTRACT §15), one type per kind of notice.
    STATUS_INCIDENT_CREATED("status.incident.created"),
    STATUS_INCIDENT_UPDATED("status.incident.updated"),
    STATUS_INCIDENT_RESOLVED("status.incident.resolved"),
    STATUS_MAINTENANCE_SCHEDULED("status.maintenance.scheduled"),
    STATUS_MAINTENANCE_CHANGED("status.maintenance.changed"),
    STATUS_MAINTENANCE_CANCELLED("status.maintenance.cancelled"),
    STATUS_MAINTENANCE_STARTED("status.maintenance.started"),
    STATUS_MAINTENANCE_COMPLETED("status.maintenance.completed");

    private final String wire;

    EventType(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static Optional<EventType> fromWire(String text) {
        return Arrays.stream(values()).filter(t -> t.wire.equals(text)).findFirst();
    }
}
