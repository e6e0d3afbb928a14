package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.services.Service;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.owasp.encoder.Encode;

/**
 * Renders the public status page: the summary, active incidents with their timelines, maintenance
 * in progress or to come, and each service with its uptime bars. Every operator-supplied string
 * goes through the OWASP encoder; nothing else from the database is interpolated.
 */
final class StatusPageView {
    private StatusPageView() {}

    /** What the page shows: the feed's snapshot and each listed service's uptime. */
    record Content(
            List<Service> services,
            List<GroupRollup> groups,
            List<Incident> activeIncidents,
            List<Maintenance> maintenances,
            Map<String, UptimeReport> uptime) {}

    static String render(Content content, Branding branding, Messages words, PageSection extra) {
        List<Service> services = content.services();
        PageSummary summary = PageSummary.of(services, words);
        Map<String, String> names = IncidentHtml.names(services);
        StringBuilder html = new StringBuilder(4096 + services.size() * 8192);
        PageLayout.open(html, branding, words.text("nav.current"), "status", words);
        html.append("""
                <section class="summary tone-%s" aria-labelledby="summary-heading">
                <h2 id="summary-heading">%s</h2>
                <p>%s</p>
                %s
                </section>
                """.formatted(
                        summary.tone(),
                        Encode.forHtml(summary.headline()),
                        Encode.forHtml(summary.detail()),
                        lastUpdated(services, words)));
        if (!content.activeIncidents().isEmpty()) {
            html.append("<section class=\"group\" aria-labelledby=\"incidents-heading\">\n")
                    .append("<h2 id=\"incidents-heading\">")
                    .append(Encode.forHtml(words.text("section.incidents")))
                    .append("</h2>\n");
            content.activeIncidents().forEach(incident -> IncidentHtml.incident(html, incident, names, 3, words));
            html.append("</section>\n");
        }
        if (!content.maintenances().isEmpty()) {
            html.append("<section class=\"group\" aria-labelledby=\"maintenance-heading\">\n")
                    .append("<h2 id=\"maintenance-heading\">")
                    .append(Encode.forHtml(words.text("section.maintenance")))
                    .append("</h2>\n");
            content.maintenances().forEach(maintenance -> IncidentHtml.maintenance(html, maintenance, names, words));
            html.append("</section>\n");
        }
        List<GroupRollup> groups =
                content.groups().stream().filter(g -> !g.members().isEmpty()).toList();
        List<Service> ungrouped = services.stream()
                .filter(s -> s.groupId().isEmpty()
                        || groups.stream().noneMatch(g -> g.members().contains(s)))
                .toList();
        List<Service> spotlighted =
                ungrouped.stream().filter(Service::spotlighted).toList();
        List<Service> others = ungrouped.stream().filter(s -> !s.spotlighted()).toList();
        if (others.isEmpty() || spotlighted.isEmpty()) {
            group(html, "services", words.text("section.services"), ungrouped, content.uptime(), words);
            GroupHtml.groups(html, groups, content.uptime(), words);
        } else {
            group(html, "spotlighted", words.text("section.spotlighted"), spotlighted, content.uptime(), words);
            GroupHtml.groups(html, groups, content.uptime(), words);
            group(html, "others", words.text("section.others"), others, content.uptime(), words);
        }
        html.append(extra.html(services));
        PageLayout.close(html, "/status", words);
        return html.toString();
    }

    private static String lastUpdated(List<Service> services, Messages words) {
        return services.stream()
                .map(Service::updatedAt)
                .max(Comparator.naturalOrder())
                .map(at -> "<p class=\"updated\">" + PageText.html(words, "updated.last", PageText.time(at, words))
                        + "</p>")
                .orElse("");
    }

    private static void group(
            StringBuilder html,
            String key,
            String heading,
            List<Service> services,
            Map<String, UptimeReport> uptime,
            Messages words) {
        if (services.isEmpty()) {
            return;
        }
        html.append("<section class=\"group\" aria-labelledby=\"")
                .append(key)
                .append("-heading\">\n<h2 id=\"")
                .append(key)
                .append("-heading\">")
                .append(Encode.forHtml(heading))
                .append("</h2>\n<ul class=\"services\">\n");
        services.forEach(service -> item(html, service, Optional.ofNullable(uptime.get(service.id())), words));
        html.append("</ul>\n</section>\n");
    }

    static void item(StringBuilder html, Service service, Optional<UptimeReport> uptime, Messages words) {
        StatusWords status = StatusWords.of(service.status(), words);
        html.append("<li class=\"service tone-")
                .append(status.tone())
                .append("\" data-service=\"")
                .append(Encode.forHtmlAttribute(service.id()))
                .append("\" data-status=\"")
                .append(service.status().wire())
                .append("\">\n<div class=\"service-text\">\n<h3>")
                .append(Encode.forHtml(service.name()))
                .append("</h3>\n");
        if (!service.description().isBlank()) {
            html.append("<p class=\"description\">")
                    .append(Encode.forHtml(service.description()))
                    .append("</p>\n");
        }
        html.append("</div>\n<div class=\"service-state\">\n<p class=\"badge\">")
                .append("<span class=\"visually-hidden\">")
                .append(Encode.forHtml(words.text("status.prefix")))
                .append(" </span>")
                .append(Encode.forHtml(status.label()))
                .append("</p>\n<p class=\"updated\">")
                .append(PageText.html(words, "updated.at", PageText.time(service.updatedAt(), words)))
                .append("</p>\n</div>\n");
        uptime.ifPresent(report -> UptimeBars.render(html, report, words));
        html.append("</li>\n");
    }
}
