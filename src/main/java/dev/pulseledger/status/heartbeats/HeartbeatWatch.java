package dev.pulseledger.status.heartbeats;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.Times;
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.IncidentWrite;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.services.StatusSource;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.ScheduledSweep;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Watches heartbeats on every node: a heartbeat silent past its grace is claimed as missed by one
 * node, which sets the service to its missed status and opens a draft incident for operators; a
 * missed heartbeat that beats again is claimed back the same way, its status restored and its
 * incident (draft or published) updated.
 */
public final class HeartbeatWatch implements AutoCloseable {
    private static final int BATCH_SIZE = 50;
    private static final int MAX_BATCHES_PER_RUN = 4;

    /** What the watch reads and writes. */
    public record Stores(
            Database database,
            HeartbeatStore heartbeats,
            ServiceStore services,
            IncidentStore incidents,
            Outbox outbox) {}

    private final Stores stores;
    private final Clock clock;
    private final Runnable onChange;
    private final ScheduledSweep sweep;

    public HeartbeatWatch(Stores stores, Clock clock, Duration interval, Runnable onChange) {
        this.stores = stores;
        this.clock = clock;
        this.onChange = onChange;
        this.sweep = new ScheduledSweep(
                "heartbeat-watch", new ScheduledSweep.Limits(interval, BATCH_SIZE, MAX_BATCHES_PER_RUN), this::take);
    }

    public HeartbeatWatch start() {
        sweep.start(Duration.ZERO);
        return this;
    }

    private int take(int batchSize) {
        Instant now = clock.instant();
        List<Heartbeat> missed = stores.heartbeats().missed(now, batchSize);
        missed.forEach(heartbeat -> miss(heartbeat, now));
        List<Heartbeat> returned = stores.heartbeats().returned(batchSize);
        returned.forEach(heartbeat -> back(heartbeat, now));
        return Math.max(missed.size(), returned.size());
    }

    /** The miss, claimed by one node, the status it sets and the draft it opens: one transaction. */
    private void miss(Heartbeat heartbeat, Instant now) {
        boolean claimed = stores.database().inTransaction(connection -> {
            Optional<Service> service = stores.services().findForUpdate(connection, heartbeat.serviceId());
            if (service.isEmpty()
                    || !stores.heartbeats()
                            .claimMiss(connection, heartbeat, service.get().status(), now)) {
                return false;
            }
            Optional<NewEvent> event = stores.services()
                    .changeStatus(connection, service.get(), heartbeat.statusWhenMissed(), StatusSource.HEARTBEAT, now);
            if (event.isPresent()) {
                stores.outbox().append(connection, List.of(event.get()), now);
            }
            TreeMap<String, ServiceStatus> services = new TreeMap<>();
            services.put(heartbeat.serviceId(), heartbeat.statusWhenMissed());
            IncidentWrite draft = stores.incidents()
                    .createDraft(
                            connection,
                            "No heartbeat from " + service.get().name(),
                            impact(heartbeat.statusWhenMissed()),
                            new IncidentStore.Change(
                                    IncidentStatus.INVESTIGATING,
                                    "No heartbeat since " + Times.format(heartbeat.lastBeatAt()) + "; the service is "
                                            + heartbeat.statusWhenMissed().wire() + " until beats return.",
                                    services,
                                    now));
            if (draft instanceof IncidentWrite.Written written) {
                stores.heartbeats()
                        .setIncident(
                                connection,
                                heartbeat.serviceId(),
                                written.incident().id());
            }
            return true;
        });
        if (claimed) {
            onChange.run();
        }
    }

    /** The return, claimed by one node, the status it restores and the update to its incident: one transaction. */
    private void back(Heartbeat heartbeat, Instant now) {
        boolean claimed = stores.database().inTransaction(connection -> {
            Optional<Service> service = stores.services().findForUpdate(connection, heartbeat.serviceId());
            if (service.isEmpty() || !stores.heartbeats().claimReturn(connection, heartbeat)) {
                return false;
            }
            ServiceStatus before = heartbeat.statusBefore().orElse(ServiceStatus.OPERATIONAL);
            Optional<NewEvent> event =
                    stores.services().changeStatus(connection, service.get(), before, StatusSource.HEARTBEAT, now);
            if (event.isPresent()) {
                stores.outbox().append(connection, List.of(event.get()), now);
            }
            if (heartbeat.incidentId().isPresent()) {
                stores.incidents()
                        .addUpdate(
                                connection,
                                heartbeat.incidentId().get(),
                                new IncidentStore.Change(
                                        IncidentStatus.RESOLVED,
                                        "Heartbeats arrive again since " + Times.format(heartbeat.lastBeatAt()) + ".",
                                        new TreeMap<>(),
                                        now));
            }
            return true;
        });
        if (claimed) {
            onChange.run();
        }
    }

    private static IncidentImpact impact(ServiceStatus status) {
        return switch (status) {
            case MAJOR_OUTAGE -> IncidentImpact.MAJOR;
            case PARTIAL_OUTAGE, DEGRADED_PERFORMANCE -> IncidentImpact.MINOR;
            case OPERATIONAL, UNDER_MAINTENANCE, UNKNOWN -> IncidentImpact.NONE;
        };
    }

    @Override
    public void close() {
        sweep.close();
    }
}
