package dev.pulseledger.status.services;

import java.time.Instant;
import java.util.Comparator;

/** One of the provider's services, as listed by the pulse feed. */
public record Service(
        String id,
        String name,
        String description,
        ServiceStatus status,
        boolean spotlighted,
        int position,
        boolean isPublic,
        Instant updatedAt) {

    /** Spotlighted first, then by position, then by id: a total, stable order (CONTRACT §3). */
    public static final Comparator<Service> PULSE_ORDER = Comparator.comparing((Service s) -> !s.spotlighted())
            .thenComparingInt(Service::position)
            .thenComparing(Service::id);
}
