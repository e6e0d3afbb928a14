package dev.pulseledger.status.history;

import dev.pulseledger.status.services.ServiceStatus;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** A service's uptime per UTC day, oldest first, and over the whole period; empty where there is no data. */
public record UptimeReport(LocalDate from, LocalDate to, Optional<Double> uptime, List<Day> days) {
    public UptimeReport {
        days = List.copyOf(days);
    }

    /** One UTC day: its uptime from 0 to 1 and the worst status held, both empty before the service existed. */
    public record Day(LocalDate date, Optional<Double> uptime, Optional<ServiceStatus> worst) {}
}
