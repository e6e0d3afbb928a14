package dev.pulseledger.status.upstream;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.services.StatusSource;
import dev.pulseledger.store.Database;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Applies a read upstream status in one transaction: the read's tag, and the service's status with
 * its history row (set by {@code upstream}) and its event when the status really changed.
 */
final class UpstreamStatusWriter {
    private final Database database;
    private final UpstreamStore upstreams;
    private final ServiceStore services;
    private final Outbox outbox;

    UpstreamStatusWriter(Database database, UpstreamStore upstreams, ServiceStore services, Outbox outbox) {
        this.database = database;
        this.upstreams = upstreams;
        this.services = services;
        this.outbox = outbox;
    }

    /** True when the service's status changed; a read of an upstream replaced meanwhile changes nothing. */
    boolean apply(Upstream read, Optional<String> etag, Optional<ServiceStatus> status, Instant now) {
        return database.inTransaction(connection -> {
            Optional<Service> service = services.findForUpdate(connection, read.serviceId());
            if (service.isEmpty() || !upstreams.recordRead(connection, read, etag, now) || status.isEmpty()) {
                return false;
            }
            Optional<NewEvent> event =
                    services.changeStatus(connection, service.get(), status.get(), StatusSource.UPSTREAM, now);
            if (event.isEmpty()) {
                return false;
            }
            outbox.append(connection, List.of(event.get()), now);
            return true;
        });
    }
}
