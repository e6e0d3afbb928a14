package dev.pulseledger.pulse;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.pulseledger.http.EntityTags;
import dev.pulseledger.http.Json;
import dev.pulseledger.status.Incident;
import dev.pulseledger.status.IncidentStore;
import dev.pulseledger.status.Maintenance;
import dev.pulseledger.status.MaintenanceStore;
import dev.pulseledger.status.StatusJson;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The public service listing with its active incidents and upcoming maintenance, rendered once and
 * shared by every request until it is at most {@link #MAX_STALENESS} old, so a change made on any
 * node shows everywhere within the contract's bound while reads cost no query.
 */
public final class PulseFeed {
    public static final Duration MAX_STALENESS = Duration.ofSeconds(1);

    /**
     * What callers see: the ordered public services, the incidents and maintenance windows that
     * touch them (showing only public services), the JSON body and its entity tag.
     */
    @SuppressWarnings("ArrayRecordComponent") // the JSON is sent as is, never compared or changed
    public record Snapshot(
            List<Service> services,
            List<Incident> activeIncidents,
            List<Maintenance> scheduledMaintenances,
            byte[] json,
            String etag) {}

    /** The body of {@code GET /api/pulse}. */
    private record FeedBody(
            List<ServiceJson.FeedBody> services,
            List<StatusJson.IncidentBody> activeIncidents,
            List<StatusJson.MaintenanceBody> scheduledMaintenances) {}

    private final ServiceStore store;
    private final IncidentStore incidents;
    private final MaintenanceStore maintenances;
    private final LoadingCache<String, Snapshot> snapshot;

    public PulseFeed(ServiceStore store, IncidentStore incidents, MaintenanceStore maintenances) {
        this.store = store;
        this.incidents = incidents;
        this.maintenances = maintenances;
        this.snapshot = Caffeine.newBuilder()
                .expireAfterWrite(MAX_STALENESS)
                .maximumSize(1)
                .build(k -> load());
    }

    public Snapshot current() {
        return snapshot.get("feed");
    }

    /** Drops the cached listing after a change on this node, so it shows at once here. */
    public void invalidate() {
        snapshot.invalidateAll();
    }

    private Snapshot load() {
        List<Service> services = store.all().stream()
                .filter(Service::isPublic)
                .sorted(Service.PULSE_ORDER)
                .toList();
        Set<String> shown = services.stream().map(Service::id).collect(Collectors.toSet());
        List<Incident> active = incidents.active().stream()
                .filter(incident -> incident.isVisibleWith(shown))
                .map(incident -> incident.restrictedTo(shown))
                .toList();
        List<Maintenance> upcoming = maintenances.upcoming().stream()
                .filter(maintenance -> maintenance.isVisibleWith(shown))
                .map(maintenance -> maintenance.restrictedTo(shown))
                .toList();
        byte[] json = Json.bytes(new FeedBody(
                services.stream().map(ServiceJson::forFeed).toList(),
                active.stream().map(StatusJson::incident).toList(),
                upcoming.stream().map(StatusJson::maintenance).toList()));
        return new Snapshot(services, active, upcoming, json, EntityTags.of(json));
    }
}
