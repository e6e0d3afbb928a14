package dev.pulseledger.status.groups;

import java.time.Instant;
import java.util.Comparator;

/** A named group of services that the page shows together, with the status of its gravest member. */
public record ServiceGroup(String id, String name, int position, Instant createdAt, Instant updatedAt) {
    /** By position, then by id: a total, stable order. */
    public static final Comparator<ServiceGroup> ORDER =
            Comparator.comparingInt(ServiceGroup::position).thenComparing(ServiceGroup::id);
}
