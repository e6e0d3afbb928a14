package dev.pulseledger.status.incidents;

import java.util.List;

/** Outcome of writing an incident: expected refusals are values, not exceptions. */
public sealed interface IncidentWrite {
    record Written(Incident incident) implements IncidentWrite {}

    record NotFound() implements IncidentWrite {}

    /** The named services do not exist; nothing was written. */
    record UnknownServices(List<String> serviceIds) implements IncidentWrite {}

    /** The incident already has {@link IncidentStore#MAX_UPDATES} updates; nothing was written. */
    record TooManyUpdates() implements IncidentWrite {}
}
