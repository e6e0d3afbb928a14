package dev.pulseledger.status.incidents;

import dev.pulseledger.events.EventType;
import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A change that subscribers hear of (CONTRACT §15): an incident opened, updated or resolved, or a
 * maintenance window scheduled, changed, cancelled, started or completed. {@code services} are the
 * ids the change touches (before the public ones are picked out); an incident naming none touches all.
 */
public record StatusNotice(
        EventType type,
        String subjectId,
        String title,
        String status,
        String message,
        SortedSet<String> services,
        Optional<Instant> startsAt,
        Optional<Instant> endsAt) {

    public StatusNotice {
        services = Collections.unmodifiableSortedSet(new TreeSet<>(services));
    }

    /** The incident's notice after a change of {@code type}: its newest update's status and message. */
    public static StatusNotice of(EventType type, Incident incident) {
        String message = incident.updates().isEmpty()
                ? ""
                : incident.updates().getFirst().message();
        return new StatusNotice(
                type,
                incident.id(),
                incident.title(),
                incident.status().wire(),
                message,
                incident.services(),
                Optional.empty(),
                Optional.empty());
    }

    /** The window's notice after a change of {@code type}. */
    public static StatusNotice of(EventType type, Maintenance window) {
        return new StatusNotice(
                type,
                window.id(),
                window.title(),
                window.status().wire(),
                window.message(),
                window.services(),
                Optional.of(window.startsAt()),
                Optional.of(window.endsAt()));
    }
}
