package dev.pulseledger.status.incidents;

import dev.pulseledger.http.Times;
import dev.pulseledger.status.history.StatusChange;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.services.ServiceStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** JSON shapes of incidents, maintenance windows, status history and uptime. */
public final class StatusJson {
    private StatusJson() {}

    public record IncidentBody(
            String id,
            String title,
            String impact,
            String status,
            List<String> services,
            String createdAt,
            String updatedAt,
            @Nullable String resolvedAt,
            List<UpdateBody> updates) {}

    /** One update of an incident; {@code services} maps each service it names to its status then. */
    public record UpdateBody(
            String id, String status, String message, Map<String, String> services, String createdAt) {}

    public record MaintenanceBody(
            String id,
            String title,
            String message,
            String status,
            List<String> services,
            String startsAt,
            String endsAt,
            String createdAt,
            String updatedAt,
            @Nullable String startedAt,
            @Nullable String completedAt) {}

    /** A service's status change; {@code from} is null for its first status. */
    public record ChangeBody(String serviceId, @Nullable String from, String to, ChangedBy by, String at) {}

    /** What changed a status: an incident, a maintenance window or an operator, and its id if any. */
    public record ChangedBy(String type, @Nullable String id) {}

    /** Uptime over a range of days; null uptime where nothing was measured. */
    public record UptimeBody(
            String serviceId,
            String from,
            String to,
            @Nullable Double uptime,
            List<UptimeDayBody> days) {}

    public record UptimeDayBody(
            String date, @Nullable Double uptime, @Nullable String worstStatus) {}

    public static IncidentBody incident(Incident incident) {
        return new IncidentBody(
                incident.id(),
                incident.title(),
                incident.impact().wire(),
                incident.status().wire(),
                List.copyOf(incident.services()),
                Times.format(incident.createdAt()),
                Times.format(incident.updatedAt()),
                time(incident.resolvedAt()),
                incident.updates().stream().map(StatusJson::update).toList());
    }

    private static UpdateBody update(IncidentUpdate update) {
        Map<String, String> services = new LinkedHashMap<>();
        update.services().forEach((id, status) -> services.put(id, status.wire()));
        return new UpdateBody(
                update.id(), update.status().wire(), update.message(), services, Times.format(update.createdAt()));
    }

    public static MaintenanceBody maintenance(Maintenance maintenance) {
        return new MaintenanceBody(
                maintenance.id(),
                maintenance.title(),
                maintenance.message(),
                maintenance.status().wire(),
                List.copyOf(maintenance.services()),
                Times.format(maintenance.startsAt()),
                Times.format(maintenance.endsAt()),
                Times.format(maintenance.createdAt()),
                Times.format(maintenance.updatedAt()),
                time(maintenance.startedAt()),
                time(maintenance.completedAt()));
    }

    public static ChangeBody change(StatusChange change) {
        return new ChangeBody(
                change.serviceId(),
                change.from().map(ServiceStatus::wire).orElse(null),
                change.to().wire(),
                new ChangedBy(
                        change.source().kind().wire(), change.source().id().orElse(null)),
                Times.format(change.at()));
    }

    public static UptimeBody uptime(String serviceId, UptimeReport report) {
        return new UptimeBody(
                serviceId,
                report.from().toString(),
                report.to().toString(),
                report.uptime().orElse(null),
                report.days().stream()
                        .map(day -> new UptimeDayBody(
                                day.date().toString(),
                                day.uptime().orElse(null),
                                day.worst().map(ServiceStatus::wire).orElse(null)))
                        .toList());
    }

    private static @Nullable String time(Optional<Instant> instant) {
        return instant.map(Times::format).orElse(null);
    }
}
