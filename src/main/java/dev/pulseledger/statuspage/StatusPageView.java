package dev.pulseledger.statuspage;

import dev.pulseledger.http.Times;
import dev.pulseledger.pulse.Service;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.owasp.encoder.Encode;

/**
 * Renders the public status page as plain HTML with no script. Every operator-supplied string
 * (service names, descriptions, ids) goes through the OWASP encoder; nothing else is interpolated.
 */
final class StatusPageView {
    /** A person leaving the page open sees changes within this, without JavaScript. */
    static final int REFRESH_SECONDS = 30;

    private static final DateTimeFormatter HUMAN_TIME = DateTimeFormatter.ofPattern(
                    "d MMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private StatusPageView() {}

    /** The page for {@code services}, already in feed order (spotlighted first). */
    static String render(List<Service> services) {
        PageSummary summary = PageSummary.of(services);
        List<Service> spotlighted =
                services.stream().filter(Service::spotlighted).toList();
        List<Service> others = services.stream().filter(s -> !s.spotlighted()).toList();
        StringBuilder html = new StringBuilder(1024 + services.size() * 512);
        html.append("""
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <meta http-equiv="refresh" content="%d">
                <title>%s · Service status</title>
                <link rel="stylesheet" href="status/status.css">
                </head>
                <body>
                <header class="masthead"><div class="wrap"><h1>Service status</h1></div></header>
                <main class="wrap">
                <section class="summary tone-%s" aria-labelledby="summary-heading">
                <h2 id="summary-heading">%s</h2>
                <p>%s</p>
                %s
                </section>
                """.formatted(
                        REFRESH_SECONDS,
                        Encode.forHtml(summary.headline()),
                        summary.tone(),
                        Encode.forHtml(summary.headline()),
                        Encode.forHtml(summary.detail()),
                        lastUpdated(services)));
        if (others.isEmpty() || spotlighted.isEmpty()) {
            group(html, "services", "Services", services);
        } else {
            group(html, "spotlighted", "Spotlighted services", spotlighted);
            group(html, "others", "Other services", others);
        }
        html.append("""
                </main>
                <footer class="wrap footer">
                <p>This page refreshes itself every %d seconds. Times are in UTC.</p>
                </footer>
                </body>
                </html>
                """.formatted(REFRESH_SECONDS));
        return html.toString();
    }

    private static String lastUpdated(List<Service> services) {
        return services.stream()
                .map(Service::updatedAt)
                .max(Comparator.naturalOrder())
                .map(at -> "<p class=\"updated\">Last updated " + time(at) + "</p>")
                .orElse("");
    }

    private static void group(StringBuilder html, String key, String heading, List<Service> services) {
        if (services.isEmpty()) {
            return;
        }
        html.append("<section class=\"group\" aria-labelledby=\"")
                .append(key)
                .append("-heading\">\n<h2 id=\"")
                .append(key)
                .append("-heading\">")
                .append(heading)
                .append("</h2>\n<ul class=\"services\">\n");
        services.forEach(service -> item(html, service));
        html.append("</ul>\n</section>\n");
    }

    private static void item(StringBuilder html, Service service) {
        StatusWords words = StatusWords.of(service.status());
        html.append("<li class=\"service tone-")
                .append(words.tone())
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
                .append("<span class=\"visually-hidden\">Status: </span>")
                .append(words.label())
                .append("</p>\n<p class=\"updated\">Updated ")
                .append(time(service.updatedAt()))
                .append("</p>\n</div>\n</li>\n");
    }

    private static String time(Instant at) {
        return "<time datetime=\"" + Times.format(at) + "\">" + HUMAN_TIME.format(at) + "</time>";
    }
}
