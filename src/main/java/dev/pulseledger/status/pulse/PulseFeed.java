package dev.pulseledger.status.pulse;

import dev.pulseledger.http.Json;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Responses;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.groups.ServiceGroupJson;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.incidents.StatusJson;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceJson;
import dev.pulseledger.status.services.ServiceStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;

/**
 * The public service listing with its active incidents and upcoming maintenance, rendered once and
 * shared by every request until it is at most {@link #MAX_STALENESS} old, so a change made on any
 * node shows everywhere within the contract's bound while reads cost no query. A read of a fresh
 * listing is two volatile reads and a clock read; one caller reloads a stale one while the others wait for it.
 */
public final class PulseFeed {
    public static final Duration MAX_STALENESS = Duration.ofSeconds(1);

    /**
     * Private: the feed is for key holders only, so no shared cache may keep it. No-cache: a client
     * may keep it but asks each time (a cheap 304 while it is unchanged), so it never shows a status
     * older than the feed's own bound, and a revoked key stops working at once.
     */
    static final String CACHE_CONTROL = "private, no-cache";

    /**
     * What callers see: the ordered public services, the incidents and maintenance windows that
     * touch them (showing only public services), and the JSON body as sent, with its tag and gzipped form.
     */
    public record Snapshot(
            List<Service> services,
            List<GroupRollup> groups,
            List<Incident> activeIncidents,
            List<Maintenance> scheduledMaintenances,
            Representation representation) {}

    /** The body of {@code GET /api/pulse}. */
    private record FeedBody(
            List<ServiceJson.FeedBody> services,
            List<ServiceGroupJson.FeedBody> groups,
            List<StatusJson.IncidentBody> activeIncidents,
            List<StatusJson.MaintenanceBody> scheduledMaintenances) {}

    /** A snapshot, when its load began, and the count of local changes it may already show. */
    private record Loaded(Snapshot snapshot, long startedNanos, long changes) {}

    private final ServiceStore store;
    private final ServiceGroupStore groups;
    private final IncidentStore incidents;
    private final MaintenanceStore maintenances;
    private final ReentrantLock loading = new ReentrantLock();
    /** Changes made on this node: one that moved it since a load began makes that load stale at once. */
    private final AtomicLong changes = new AtomicLong();

    private volatile Optional<Loaded> loaded = Optional.empty();

    public PulseFeed(
            ServiceStore store, ServiceGroupStore groups, IncidentStore incidents, MaintenanceStore maintenances) {
        this.store = store;
        this.groups = groups;
        this.incidents = incidents;
        this.maintenances = maintenances;
    }

    public Snapshot current() {
        Optional<Loaded> now = loaded;
        if (isFresh(now)) {
            return now.get().snapshot();
        }
        loading.lock();
        try {
            now = loaded;
            if (isFresh(now)) {
                return now.get().snapshot(); // another caller reloaded it while this one waited
            }
            // Stamped before the queries begin, so the snapshot is judged by its oldest possible row.
            long startedNanos = System.nanoTime();
            long changesSeen = changes.get();
            Snapshot next = load(now.map(Loaded::snapshot));
            loaded = Optional.of(new Loaded(next, startedNanos, changesSeen));
            return next;
        } finally {
            loading.unlock();
        }
    }

    /** Drops the cached listing after a change on this node, so it shows at once here. */
    public void invalidate() {
        changes.incrementAndGet();
    }

    private boolean isFresh(Optional<Loaded> candidate) {
        return candidate.isPresent()
                && candidate.get().changes() == changes.get()
                && System.nanoTime() - candidate.get().startedNanos() < MAX_STALENESS.toNanos();
    }

    /** Reads and renders the listing; the bytes and tag of {@code previous} are kept when nothing shown changed. */
    private Snapshot load(Optional<Snapshot> previous) {
        List<Service> services = store.all().stream()
                .filter(Service::isPublic)
                .sorted(Service.PULSE_ORDER)
                .toList();
        Set<String> shown = services.stream().map(Service::id).collect(Collectors.toSet());
        List<GroupRollup> rolledUp = GroupRollup.of(groups.all(), services);
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
                rolledUp.stream().map(ServiceGroupJson::forFeed).toList(),
                active.stream().map(StatusJson::incident).toList(),
                upcoming.stream().map(StatusJson::maintenance).toList()));
        if (previous.isPresent()
                && Arrays.equals(previous.get().representation().body(), json)) {
            return new Snapshot(
                    services, rolledUp, active, upcoming, previous.get().representation());
        }
        return new Snapshot(
                services, rolledUp, active, upcoming, Representation.of(Responses.JSON, json, CACHE_CONTROL));
    }
}
