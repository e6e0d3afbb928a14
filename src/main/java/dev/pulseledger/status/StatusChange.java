package dev.pulseledger.status;

import dev.pulseledger.pulse.ServiceStatus;
import dev.pulseledger.pulse.StatusSource;
import java.time.Instant;
import java.util.Optional;

/** One change of a service's status; {@code from} is empty for the status it was created with. */
public record StatusChange(
        String serviceId, Optional<ServiceStatus> from, ServiceStatus to, StatusSource source, Instant at) {}
