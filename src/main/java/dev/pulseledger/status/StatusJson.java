package dev.pulseledger.status;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.Times;
import dev.pulseledger.pulse.ServiceStatus;
import dev.pulseledger.store.Page;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/** JSON shapes of incidents, maintenance windows, status history and uptime. */
public final class StatusJson {
    private StatusJson() {}

    public static Map<String, Object> incident(Incident incident) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", incident.id());
        body.put("title", incident.title());
        body.put("impact", incident.impact().wire());
        body.put("status", incident.status().wire());
        body.put("services", List.copyOf(incident.services()));
        body.put("createdAt", Times.format(incident.createdAt()));
        body.put("updatedAt", Times.format(incident.updatedAt()));
        body.put("resolvedAt", time(incident.resolvedAt()));
        body.put("updates", incident.updates().stream().map(StatusJson::update).toList());
        return body;
    }

    private static Map<String, Object> update(IncidentUpdate update) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", update.id());
        body.put("status", update.status().wire());
        body.put("message", update.message());
        Map<String, Object> services = new LinkedHashMap<>();
        update.services().forEach((id, status) -> services.put(id, status.wire()));
        body.put("services", services);
        body.put("createdAt", Times.format(update.createdAt()));
        return body;
    }

    public static Map<String, Object> maintenance(Maintenance maintenance) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", maintenance.id());
        body.put("title", maintenance.title());
        body.put("message", maintenance.message());
        body.put("status", maintenance.status().wire());
        body.put("services", List.copyOf(maintenance.services()));
        body.put("startsAt", Times.format(maintenance.startsAt()));
        body.put("endsAt", Times.format(maintenance.endsAt()));
        body.put("createdAt", Times.format(maintenance.createdAt()));
        body.put("updatedAt", Times.format(maintenance.updatedAt()));
        body.put("startedAt", time(maintenance.startedAt()));
        body.put("completedAt", time(maintenance.completedAt()));
        return body;
    }

    public static Map<String, Object> change(StatusChange change) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("serviceId", change.serviceId());
        body.put("from", change.from().map(ServiceStatus::wire).orElse(null));
        body.put("to", change.to().wire());
        Map<String, Object> by = new LinkedHashMap<>();
        by.put("type", change.source().kind().wire());
        by.put("id", change.source().id().orElse(null));
        body.put("by", by);
        body.put("at", Times.format(change.at()));
        return body;
    }

    public static Map<String, Object> uptime(String serviceId, UptimeReport report) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("serviceId", serviceId);
        body.put("from", report.from().toString());
        body.put("to", report.to().toString());
        body.put("uptime", report.uptime().orElse(null));
        body.put(
                "days",
                report.days().stream()
                        .map(day -> {
                            Map<String, Object> row = new LinkedHashMap<>();
                            row.put("date", day.date().toString());
                            row.put("uptime", day.uptime().orElse(null));
                            row.put(
                                    "worstStatus",
                                    day.worst().map(ServiceStatus::wire).orElse(null));
                            return row;
                        })
                        .toList());
        return body;
    }

    /** The {@code {"data", "nextCursor"}} shape of every cursor-paged listing. */
    public static <T> Map<String, Object> page(Page<T> page, Function<T, Map<String, Object>> item) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("data", page.items().stream().map(item).toList());
        body.put("nextCursor", page.nextPosition().map(Cursors::encode).orElse(null));
        return body;
    }

    private static @Nullable String time(Optional<Instant> instant) {
        return instant.map(Times::format).orElse(null);
    }
}
