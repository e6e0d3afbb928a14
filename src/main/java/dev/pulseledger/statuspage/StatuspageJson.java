package dev.pulseledger.statuspage;

import dev.pulseledger.http.Times;
import dev.pulseledger.pulse.Service;
import dev.pulseledger.pulse.ServiceStatus;
import dev.pulseledger.status.Incident;
import dev.pulseledger.status.IncidentStatus;
import dev.pulseledger.status.IncidentUpdate;
import dev.pulseledger.status.Maintenance;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The documents of Statuspage's public v2 API ({@code /api/v2/*.json}) built from ours, with its
 * field names and values, so status aggregators and widgets made for Statuspage read them unchanged.
 */
final class StatuspageJson {
    /** Statuspage's page id is opaque; ours names the product, as one node serves one page. */
    static final String PAGE_ID = "pulseledger";

    private static final String HISTORY_PATH = "/status/history";

    private StatuspageJson() {}

    /** The {@code page} object every document starts with. */
    static Map<String, Object> page(Branding branding, Instant updatedAt) {
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("id", PAGE_ID);
        page.put("name", branding.providerName().orElse(branding.title()));
        page.put("url", branding.providerUrl().orElse(StatusPageRoutes.PATH));
        page.put("time_zone", "Etc/UTC");
        page.put("updated_at", Times.format(updatedAt));
        return page;
    }

    /** A service as a component. Statuspage has no "unknown": it shows as degraded performance. */
    static Map<String, Object> component(Service service) {
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("id", service.id());
        component.put("name", service.name());
        component.put("status", componentStatus(service.status()));
        // Ours has no separate creation time in the feed; the last change stands in for both.
        component.put("created_at", Times.format(service.updatedAt()));
        component.put("updated_at", Times.format(service.updatedAt()));
        component.put("position", service.position());
        component.put("description", service.description().isBlank() ? null : service.description());
        component.put("showcase", service.spotlighted());
        component.put("start_date", null);
        component.put("group_id", null);
        component.put("page_id", PAGE_ID);
        component.put("group", false);
        component.put("only_show_if_degraded", false);
        return component;
    }

    static String componentStatus(ServiceStatus status) {
        return status == ServiceStatus.UNKNOWN ? ServiceStatus.DEGRADED_PERFORMANCE.wire() : status.wire();
    }

    static Map<String, Object> incident(Incident incident, Map<String, Service> services) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", incident.id());
        body.put("name", incident.title());
        body.put("status", incident.status().wire());
        body.put("created_at", Times.format(incident.createdAt()));
        body.put("updated_at", Times.format(incident.updatedAt()));
        body.put(
                "monitoring_at",
                incident.updates().stream()
                        .filter(u -> u.status() == IncidentStatus.MONITORING)
                        .map(IncidentUpdate::createdAt)
                        .min(Comparator.naturalOrder())
                        .map(Times::format)
                        .orElse(null));
        body.put("resolved_at", incident.resolvedAt().map(Times::format).orElse(null));
        body.put("impact", incident.impact().wire());
        body.put("shortlink", HISTORY_PATH);
        body.put("started_at", Times.format(incident.createdAt()));
        body.put("page_id", PAGE_ID);
        body.put(
                "incident_updates",
                incident.updates().stream()
                        .map(update -> update(
                                incident.id(),
                                update.id(),
                                update.status().wire(),
                                update.message(),
                                update.createdAt()))
                        .toList());
        body.put("components", components(incident.services(), services));
        return body;
    }

    /** A maintenance window as a scheduled maintenance: an incident with a window and impact "maintenance". */
    static Map<String, Object> maintenance(Maintenance maintenance, Map<String, Service> services) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", maintenance.id());
        body.put("name", maintenance.title());
        body.put("status", maintenance.status().wire());
        body.put("created_at", Times.format(maintenance.createdAt()));
        body.put("updated_at", Times.format(maintenance.updatedAt()));
        body.put("monitoring_at", null);
        body.put("resolved_at", maintenance.completedAt().map(Times::format).orElse(null));
        body.put("impact", "maintenance");
        body.put("shortlink", StatusPageRoutes.PATH);
        body.put("started_at", Times.format(maintenance.startedAt().orElse(maintenance.startsAt())));
        body.put("page_id", PAGE_ID);
        body.put(
                "incident_updates",
                List.of(update(
                        maintenance.id(),
                        maintenance.id() + "-notice",
                        "scheduled",
                        maintenance.message(),
                        maintenance.createdAt())));
        body.put("components", components(maintenance.services(), services));
        body.put("scheduled_for", Times.format(maintenance.startsAt()));
        body.put("scheduled_until", Times.format(maintenance.endsAt()));
        return body;
    }

    private static Map<String, Object> update(String incidentId, String id, String status, String text, Instant at) {
        Map<String, Object> update = new LinkedHashMap<>();
        update.put("id", id);
        update.put("status", status);
        update.put("body", text);
        update.put("incident_id", incidentId);
        update.put("created_at", Times.format(at));
        update.put("updated_at", Times.format(at));
        update.put("display_at", Times.format(at));
        update.put("affected_components", null);
        update.put("deliver_notifications", true);
        update.put("custom_tweet", null);
        update.put("tweet_id", null);
        return update;
    }

    private static List<Map<String, Object>> components(Collection<String> ids, Map<String, Service> services) {
        return ids.stream()
                .map(services::get)
                .filter(Objects::nonNull)
                .map(StatuspageJson::component)
                .toList();
    }

    /**
     * The page's overall indicator, as Statuspage words it: the gravest of the components' statuses
     * and the unresolved incidents' impacts.
     */
    static Map<String, Object> status(List<Service> services, List<Incident> activeIncidents) {
        int fromServices = services.stream()
                .mapToInt(s -> switch (s.status()) {
                    case MAJOR_OUTAGE -> 3;
                    case PARTIAL_OUTAGE -> 2;
                    case DEGRADED_PERFORMANCE, UNKNOWN -> 1;
                    case OPERATIONAL, UNDER_MAINTENANCE -> 0;
                })
                .max()
                .orElse(0);
        int fromIncidents = activeIncidents.stream()
                .mapToInt(i -> switch (i.impact()) {
                    case CRITICAL -> 3;
                    case MAJOR -> 2;
                    case MINOR -> 1;
                    case NONE -> 0;
                })
                .max()
                .orElse(0);
        int level = Math.max(fromServices, fromIncidents);
        boolean maintenance = services.stream().anyMatch(s -> s.status() == ServiceStatus.UNDER_MAINTENANCE);
        Map<String, Object> status = new LinkedHashMap<>();
        if (level == 0 && maintenance) {
            status.put("indicator", "maintenance");
            status.put("description", "Service Under Maintenance");
            return status;
        }
        status.put("indicator", List.of("none", "minor", "major", "critical").get(level));
        status.put(
                "description",
                List.of(
                                "All Systems Operational",
                                "Minor Service Outage",
                                "Partial System Outage",
                                "Major System Outage")
                        .get(level));
        return status;
    }

    /** When the page last changed: its newest service or incident change. */
    static Instant updatedAt(List<Service> services, List<Incident> incidents, Instant otherwise) {
        Optional<Instant> newest = Stream.concat(
                        services.stream().map(Service::updatedAt),
                        incidents.stream().map(Incident::updatedAt))
                .max(Comparator.naturalOrder());
        return newest.orElse(otherwise);
    }
}
