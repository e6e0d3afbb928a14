package dev.pulseledger.status.incidents;

import java.time.Instant;
import java.util.Collections;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** A maintenance window: its services go under maintenance at startsAt and back at endsAt. */
public record Maintenance(
        String id,
        String title,
        String message,
        MaintenanceStatus status,
        SortedSet<String> services,
        Instant startsAt,
        Instant endsAt,
        Instant createdAt,
        Instant updatedAt,
        Optional<Instant> startedAt,
        Optional<Instant> completedAt) {

    public Maintenance {
        services = Collections.unmodifiableSortedSet(new TreeSet<>(services));
    }

    /** Callers see a window that touches at least one public service, and only those services. */
    public boolean isVisibleWith(Set<String> publicServices) {
        return services.stream().anyMatch(publicServices::contains);
    }

    public Maintenance restrictedTo(Set<String> publicServices) {
        SortedSet<String> shown = new TreeSet<>(services);
        shown.retainAll(publicServices);
        return new Maintenance(
                id, title, message, status, shown, startsAt, endsAt, createdAt, updatedAt, startedAt, completedAt);
    }
}
