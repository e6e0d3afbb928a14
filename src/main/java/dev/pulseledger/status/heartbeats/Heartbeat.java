package dev.pulseledger.status.heartbeats;

import dev.pulseledger.status.services.ServiceStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A service's heartbeat: how long it may stay silent, what it becomes when it does, when the last
 * beat came, and, while it is missed, since when, what it was before and the incident opened for it.
 */
public record Heartbeat(
        String serviceId,
        Duration grace,
        ServiceStatus statusWhenMissed,
        Instant lastBeatAt,
        Optional<Instant> missedAt,
        Optional<ServiceStatus> statusBefore,
        Optional<String> incidentId) {}
