package dev.pulseledger.status.page;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.pulseledger.http.Times;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.groups.ServiceGroup;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.IncidentUpdate;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * The documents of Statuspage's public v2 API ({@code /api/v2/*.json}) built from ours, with its
 * field names and values, so status aggregators and widgets made for Statuspage read them unchanged.
 */
final class StatuspageJson {
    /** Statuspage's page id is opaque; ours names the product, as one node serves one page. */
    static final String PAGE_ID = "pulseledger";

    private static final String HISTORY_PATH = "/status/history";

    private StatuspageJson() {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record PageBody(String id, String name, String url, String timeZone, String updatedAt) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record ComponentBody(
            String id,
            String name,
            String status,
            String createdAt,
            String updatedAt,
            int position,
            @Nullable String description,
            boolean showcase,
            @Nullable String startDate,
            @Nullable String groupId,
            String pageId,
            boolean group,
            boolean onlyShowIfDegraded,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            List<String> components) {}

    /** An incident, or (with {@code scheduledFor} and {@code scheduledUntil}) a scheduled maintenance. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record IncidentBody(
            String id,
            String name,
            String status,
            String createdAt,
            String updatedAt,
            @Nullable String monitoringAt,
            @Nullable String resolvedAt,
            String impact,
            String shortlink,
            String startedAt,
            String pageId,
            List<UpdateBody> incidentUpdates,
            List<ComponentBody> components,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String scheduledFor,

            @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable
            String scheduledUntil) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record UpdateBody(
            String id,
            String status,
            String body,
            String incidentId,
            String createdAt,
            String updatedAt,
            String displayAt,
            @Nullable Object affectedComponents,
            boolean deliverNotifications,
            @Nullable String customTweet,
            @Nullable String tweetId) {}

    record StatusBody(String indicator, String description) {}

    /** The {@code page} object every document starts with. */
    static PageBody page(Branding branding, Messages words, Instant updatedAt) {
        return new PageBody(
                PAGE_ID,
                branding.providerName().orElse(branding.title(words)),
                branding.providerUrl().orElse(StatusPageRoutes.PATH),
                "Etc/UTC",
                Times.format(updatedAt));
    }

    /** A service as a component. Statuspage has no "unknown": it shows as degraded performance. */
    static ComponentBody component(Service service) {
        // Ours has no separate creation time in the feed; the last change stands in for both.
        return new ComponentBody(
                service.id(),
                service.name(),
                componentStatus(service.status()),
                Times.format(service.updatedAt()),
                Times.format(service.updatedAt()),
                service.position(),
                service.description().isBlank() ? null : service.description(),
                service.spotlighted(),
                null,
                service.groupId().orElse(null),
                PAGE_ID,
                false,
                false,
                null);
    }

    /** A group as Statuspage shows one: a component with {@code group: true} naming its members. */
    static ComponentBody group(GroupRollup rollup) {
        ServiceGroup group = rollup.group();
        Instant updatedAt = rollup.members().stream()
                .map(Service::updatedAt)
                .filter(at -> at.isAfter(group.updatedAt()))
                .max(Comparator.naturalOrder())
                .orElse(group.updatedAt());
        return new ComponentBody(
                group.id(),
                group.name(),
                componentStatus(rollup.status()),
                Times.format(group.createdAt()),
                Times.format(updatedAt),
                group.position(),
                null,
                false,
                null,
                null,
                PAGE_ID,
                true,
                false,
                rollup.serviceIds());
    }

    static String componentStatus(ServiceStatus status) {
        return status == ServiceStatus.UNKNOWN ? ServiceStatus.DEGRADED_PERFORMANCE.wire() : status.wire();
    }

    static IncidentBody incident(Incident incident, Map<String, Service> services) {
        return new IncidentBody(
                incident.id(),
                incident.title(),
                incident.status().wire(),
                Times.format(incident.createdAt()),
                Times.format(incident.updatedAt()),
                incident.updates().stream()
                        .filter(u -> u.status() == IncidentStatus.MONITORING)
                        .map(IncidentUpdate::createdAt)
                        .min(Comparator.naturalOrder())
                        .map(Times::format)
                        .orElse(null),
                incident.resolvedAt().map(Times::format).orElse(null),
                incident.impact().wire(),
                HISTORY_PATH,
                Times.format(incident.createdAt()),
                PAGE_ID,
                incident.updates().stream()
                        .map(update -> update(
                                incident.id(),
                                update.id(),
                                update.status().wire(),
                                update.message(),
                                update.createdAt()))
                        .toList(),
                components(incident.services(), services),
                null,
                null);
    }

    /** A maintenance window as a scheduled maintenance: an incident with a window and impact "maintenance". */
    static IncidentBody maintenance(Maintenance maintenance, Map<String, Service> services) {
        return new IncidentBody(
                maintenance.id(),
                maintenance.title(),
                maintenance.status().wire(),
                Times.format(maintenance.createdAt()),
                Times.format(maintenance.updatedAt()),
                null,
                maintenance.completedAt().map(Times::format).orElse(null),
                "maintenance",
                StatusPageRoutes.PATH,
                Times.format(maintenance.startedAt().orElse(maintenance.startsAt())),
                PAGE_ID,
                List.of(update(
                        maintenance.id(),
                        maintenance.id() + "-notice",
                        "scheduled",
                        maintenance.message(),
                        maintenance.createdAt())),
                components(maintenance.services(), services),
                Times.format(maintenance.startsAt()),
                Times.format(maintenance.endsAt()));
    }

    private static UpdateBody update(String incidentId, String id, String status, String text, Instant at) {
        String time = Times.format(at);
        return new UpdateBody(id, status, text, incidentId, time, time, time, null, true, null, null);
    }

    private static List<ComponentBody> components(Collection<String> ids, Map<String, Service> services) {
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
    static StatusBody status(List<Service> services, List<Incident> activeIncidents) {
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
        if (level == 0 && maintenance) {
            return new StatusBody("maintenance", "Service Under Maintenance");
        }
        return new StatusBody(
                List.of("none", "minor", "major", "critical").get(level),
                List.of(
                                "All Systems Operational",
                                "Minor Service Outage",
                                "Partial System Outage",
                                "Major System Outage")
                        .get(level));
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
