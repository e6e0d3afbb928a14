package dev.pulseledger.status.incidents;

import dev.pulseledger.http.ProblemCode;
import java.util.List;

/** Outcome of writing a maintenance window: expected refusals are values, not exceptions. */
public sealed interface MaintenanceWrite {
    record Written(Maintenance maintenance) implements MaintenanceWrite {}

    record NotFound() implements MaintenanceWrite {}

    /** The named services do not exist; nothing was written. */
    record UnknownServices(List<String> serviceIds) implements MaintenanceWrite {}

    /** The change does not fit the window's step, e.g. moving the start of a window already started. */
    record Refused(ProblemCode code, String detail) implements MaintenanceWrite {}
}
