package dev.pulseledger.status.incidents;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** An incident with its timeline, newest update first. */
public record Incident(
        String id,
        String title,
        IncidentImpact impact,
        IncidentStatus status,
        Instant createdAt,
        Instant updatedAt,
        Optional<Instant> resolvedAt,
        List<IncidentUpdate> updates) {

    public Incident {
        updates = List.copyOf(updates);
    }

    /** Every service any update named, by id. */
    public SortedSet<String> services() {
        SortedSet<String> ids = new TreeSet<>();
        updates.forEach(update -> ids.addAll(update.services().keySet()));
        return ids;
    }

    /**
     * Callers see an incident that names no service or at least one public one, and only the public
     * services it names.
     */
    public boolean isVisibleWith(Set<String> publicServices) {
        SortedSet<String> named = services();
        return named.isEmpty() || named.stream().anyMatch(publicServices::contains);
    }

    public Incident restrictedTo(Set<String> publicServices) {
        return new Incident(
                id,
                title,
                impact,
                status,
                createdAt,
                updatedAt,
                resolvedAt,
                updates.stream().map(u -> u.restrictedTo(publicServices)).toList());
    }
}
