package dev.pulseledger.status.incidents;

import dev.pulseledger.status.services.ServiceStatus;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** One entry of an incident's timeline: its status then, the message, and the service statuses it set. */
public record IncidentUpdate(
        String id,
        IncidentStatus status,
        String message,
        SortedMap<String, ServiceStatus> services,
        Instant createdAt) {

    public IncidentUpdate {
        services = Collections.unmodifiableSortedMap(new TreeMap<>(services));
    }

    /** The same update showing only the services in {@code visible}. */
    public IncidentUpdate restrictedTo(Set<String> visible) {
        SortedMap<String, ServiceStatus> shown = new TreeMap<>();
        for (Map.Entry<String, ServiceStatus> entry : services.entrySet()) {
            if (visible.contains(entry.getKey())) {
                shown.put(entry.getKey(), entry.getValue());
            }
        }
        return new IncidentUpdate(id, status, message, shown, createdAt);
    }
}
