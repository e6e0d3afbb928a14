package dev.pulseledger.status.history;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.StatusSource;
import java.time.Instant;
import java.util.Optional;

/** One change of a service's status; {@code from} is empty for the status it was created with. */
public record StatusChange(
        String serviceId, Optional<ServiceStatus> from, ServiceStatus to, StatusSource source, Instant at) {}
