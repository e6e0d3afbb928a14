package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
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
    static void incident(
            StringBuilder html, Incident incident, Map<String, String> names, int headingLevel, Messages words) {
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
                .append(Encode.forHtml(PageText.status(incident.status(), words)))
                .append("</span> ")
                .append(Encode.forHtml(PageText.impact(incident.impact(), words)))
                .append(" · ")
                .append(PageText.html(words, "incident.opened", PageText.time(incident.createdAt(), words)))
                .append("</p>\n");
        affects(html, incident.services(), names, words);
        html.append("<ol class=\"timeline\">\n");
        for (IncidentUpdate update : incident.updates()) {
            html.append("<li>\n<p class=\"update-head\"><strong>")
                    .append(Encode.forHtml(PageText.status(update.status(), words)))
                    .append("</strong> · ")
                    .append(PageText.time(update.createdAt(), words))
                    .append("</p>\n<p class=\"message\">")
                    .append(Encode.forHtml(update.message()))
                    .append("</p>\n</li>\n");
        }
        html.append("</ol>\n</article>\n");
    }

    static void maintenance(StringBuilder html, Maintenance maintenance, Map<String, String> names, Messages words) {
        html.append("<article class=\"incident tone-maintenance\" data-maintenance=\"")
                .append(Encode.forHtmlAttribute(maintenance.id()))
                .append("\">\n<h3>")
                .append(Encode.forHtml(maintenance.title()))
                .append("</h3>\n<p class=\"meta\"><span class=\"badge\">")
                .append(Encode.forHtml(PageText.status(maintenance.status(), words)))
                .append("</span> ")
                .append(PageText.html(
                        words,
                        "maintenance.window",
                        PageText.time(maintenance.startsAt(), words),
                        PageText.time(maintenance.endsAt(), words)))
                .append("</p>\n");
        affects(html, maintenance.services(), names, words);
        if (!maintenance.message().isBlank()) {
            html.append("<p class=\"message\">")
                    .append(Encode.forHtml(maintenance.message()))
                    .append("</p>\n");
        }
        html.append("</article>\n");
    }

    private static void affects(
            StringBuilder html, Collection<String> serviceIds, Map<String, String> names, Messages words) {
        if (serviceIds.isEmpty()) {
            return;
        }
        html.append("<p class=\"affects\">")
                .append(PageText.html(
                        words,
                        "affects",
                        serviceIds.stream()
                                .map(id -> Encode.forHtml(names.getOrDefault(id, id)))
                                .collect(Collectors.joining(", "))))
                .append("</p>\n");
    }

    /** The names of services by id, for {@link #incident} and {@link #maintenance}. */
    static Map<String, String> names(List<Service> services) {
        return services.stream().collect(Collectors.toMap(Service::id, Service::name));
    }

    /** Resolved incidents read as settled; open ones by their impact. */
    static String tone(Incident incident) {
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
