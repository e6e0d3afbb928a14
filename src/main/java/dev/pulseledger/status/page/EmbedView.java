package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.services.Service;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.owasp.encoder.Encode;

/** Renders the embeddable status: the page's verdict and the active incidents, newest first, small. */
final class EmbedView {
    private EmbedView() {}

    static String render(List<Service> services, List<Incident> incidents, Branding branding, Messages words) {
        PageSummary summary = PageSummary.of(services, words);
        Map<String, String> names = IncidentHtml.names(services);
        StringBuilder html = new StringBuilder(2048 + incidents.size() * 512);
        html.append("<!doctype html>\n<html lang=\"")
                .append(words.language().tag())
                .append("\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<meta name=\"color-scheme\" content=\"light dark\">\n<title>")
                .append(Encode.forHtml(words.text("embed.title") + " · " + branding.title(words)))
                .append("</title>\n<link rel=\"stylesheet\" href=\"/status/status.css\">\n</head>\n")
                .append("<body class=\"embed\">\n<main>\n<section class=\"summary tone-")
                .append(summary.tone())
                .append("\">\n<h1>")
                .append(Encode.forHtml(summary.headline()))
                .append("</h1>\n<p>")
                .append(Encode.forHtml(summary.detail()))
                .append("</p>\n</section>\n");
        if (!incidents.isEmpty()) {
            html.append("<section aria-labelledby=\"incidents-heading\">\n<h2 id=\"incidents-heading\">")
                    .append(Encode.forHtml(words.text("section.incidents")))
                    .append("</h2>\n<ul class=\"services\">\n");
            for (Incident incident : incidents) {
                html.append("<li class=\"incident tone-")
                        .append(IncidentHtml.tone(incident))
                        .append("\" data-incident=\"")
                        .append(Encode.forHtmlAttribute(incident.id()))
                        .append("\">\n<h3>")
                        .append(Encode.forHtml(incident.title()))
                        .append("</h3>\n<p class=\"meta\">")
                        .append(Encode.forHtml(PageText.status(incident.status(), words)))
                        .append(" · ")
                        .append(Encode.forHtml(PageText.impact(incident.impact(), words)))
                        .append("</p>\n");
                if (!incident.services().isEmpty()) {
                    html.append("<p class=\"affects\">")
                            .append(Encode.forHtml(words.text(
                                    "affects",
                                    incident.services().stream()
                                            .map(id -> names.getOrDefault(id, id))
                                            .collect(Collectors.joining(", ")))))
                            .append("</p>\n");
                }
                html.append("</li>\n");
            }
            html.append("</ul>\n</section>\n");
        }
        return html.append("<p class=\"embed-link\"><a href=\"/status\" target=\"_blank\" rel=\"noopener\">")
                .append(Encode.forHtml(words.text("embed.open")))
                .append("</a></p>\n</main>\n</body>\n</html>\n")
                .toString();
    }
}
