package dev.pulseledger.status.services;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/** One of the provider's services, as listed by the pulse feed. */
public record Service(
        String id,
        String name,
        String description,
        ServiceStatus status,
        boolean spotlighted,
        int position,
        boolean isPublic,
        Instant updatedAt,
        Optional<String> groupId) {

    /** Spotlighted first, then by position, then by id: a total, stable order (CONTRACT §3). */
    public static final Comparator<Service> PULSE_ORDER = Comparator.comparing((Service s) -> !s.spotlighted())
            .thenComparingInt(Service::position)
            .thenComparing(Service::id);

    /** This service in another group (or none), changed at {@code at}. */
    public Service withGroup(Optional<String> newGroupId, Instant at) {
        return new Service(id, name, description, status, spotlighted, position, isPublic, at, newGroupId);
    }

    /** This service with another status, changed at {@code at}. */
    public Service withStatus(ServiceStatus newStatus, Instant at) {
        return new Service(id, name, description, newStatus, spotlighted, position, isPublic, at, groupId);
    }
}
