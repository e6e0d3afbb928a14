package dev.pulseledger.status.page;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.store.Page;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.owasp.encoder.Encode;

/** Renders the incident history page: incidents newest first with their timelines, a page at a time. */
final class HistoryPageView {
    /** Incidents one history page shows. */
    static final int PAGE_SIZE = 10;

    private HistoryPageView() {}

    static String render(Page<Incident> page, List<Service> services, Branding branding, Messages words) {
        Map<String, String> names = IncidentHtml.names(services);
        StringBuilder html = new StringBuilder(4096 + page.items().size() * 4096);
        PageLayout.open(html, branding, words.text("nav.history"), "history", words);
        if (page.items().isEmpty()) {
            html.append("<p>")
                    .append(Encode.forHtml(words.text("history.none")))
                    .append("</p>\n");
        }
        page.items().forEach(incident -> IncidentHtml.incident(html, incident, names, 2, words));
        page.nextPosition()
                .ifPresent(position -> html.append("<p class=\"pager\"><a href=\"/status/history?cursor=")
                        .append(URLEncoder.encode(Cursors.encode(position), StandardCharsets.UTF_8))
                        .append("\">")
                        .append(Encode.forHtml(words.text("history.older")))
                        .append("</a></p>\n"));
        PageLayout.close(html, "/status/history", words);
        return html.toString();
    }
}
