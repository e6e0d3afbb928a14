package dev.pulseledger.status.page;

import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentUpdate;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.services.Service;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.owasp.encoder.Encode;

/** Renders an incident with its timeline, and a maintenance window, for the status and history pages. */
final class IncidentHtml {
    private IncidentHtml() {}

    /**
     * @param names the public services' names by id, for the "Affects" line
     * @param headingLevel h3 under a section, h2 on the history page
     */
    static void incident(StringBuilder html, Incident incident, Map<String, String> names, int headingLevel) {
        html.append("<article class=\"incident tone-")
                .append(tone(incident))
                .append("\" data-incident=\"")
                .append(Encode.forHtmlAttribute(incident.id()))
                .append("\">\n<h")
                .append(headingLevel)
                .append(">")
                .append(Encode.forHtml(incident.title()))
                .append("</h")
                .append(headingLevel)
                .append(">\n<p class=\"meta\"><span class=\"badge\">")
                .append(PageText.status(incident.status()))
                .append("</span> ")
                .append(PageText.impact(incident.impact()))
                .append(" · opened ")
                .append(PageText.time(incident.createdAt()))
                .append("</p>\n");
        affects(html, incident.services(), names);
        html.append("<ol class=\"timeline\">\n");
        for (IncidentUpdate update : incident.updates()) {
            html.append("<li>\n<p class=\"update-head\"><strong>")
                    .append(PageText.status(update.status()))
                    .append("</strong> · ")
                    .append(PageText.time(update.createdAt()))
                    .append("</p>\n<p class=\"message\">")
                    .append(Encode.forHtml(update.message()))
                    .append("</p>\n</li>\n");
        }
        html.append("</ol>\n</article>\n");
    }

    static void maintenance(StringBuilder html, Maintenance maintenance, Map<String, String> names) {
        html.append("<article class=\"incident tone-maintenance\" data-maintenance=\"")
                .append(Encode.forHtmlAttribute(maintenance.id()))
                .append("\">\n<h3>")
                .append(Encode.forHtml(maintenance.title()))
                .append("</h3>\n<p class=\"meta\"><span class=\"badge\">")
                .append(PageText.status(maintenance.status()))
                .append("</span> ")
                .append(PageText.time(maintenance.startsAt()))
                .append(" to ")
                .append(PageText.time(maintenance.endsAt()))
                .append("</p>\n");
        affects(html, maintenance.services(), names);
        if (!maintenance.message().isBlank()) {
            html.append("<p class=\"message\">")
                    .append(Encode.forHtml(maintenance.message()))
                    .append("</p>\n");
        }
        html.append("</article>\n");
    }

    private static void affects(StringBuilder html, Collection<String> serviceIds, Map<String, String> names) {
        if (serviceIds.isEmpty()) {
            return;
        }
        html.append("<p class=\"affects\">Affects: ")
                .append(serviceIds.stream()
                        .map(id -> Encode.forHtml(names.getOrDefault(id, id)))
                        .collect(Collectors.joining(", ")))
                .append("</p>\n");
    }

    /** The names of services by id, for {@link #incident} and {@link #maintenance}. */
    static Map<String, String> names(List<Service> services) {
        return services.stream().collect(Collectors.toMap(Service::id, Service::name));
    }

    /** Resolved incidents read as settled; open ones by their impact. */
    private static String tone(Incident incident) {
        if (!incident.status().isActive()) {
            return "operational";
        }
        return switch (incident.impact()) {
            case CRITICAL -> "major-outage";
            case MAJOR -> "partial-outage";
            case MINOR -> "degraded";
            case NONE -> "unknown";
        };
    }
}
