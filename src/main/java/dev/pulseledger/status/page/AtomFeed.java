package dev.pulseledger.status.page;

import dev.pulseledger.http.Times;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentUpdate;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;
import org.owasp.encoder.Encode;

/**
 * An Atom (RFC 4287) feed of the incidents callers see, newest first: one entry per incident, updated
 * with each of its updates, so feed readers show a changed incident again. The whole page's feed, or
 * one service's ({@code ?service=}: the incidents that name it).
 */
final class AtomFeed {
    /** Incidents the feed carries. */
    static final int MAX_ENTRIES = 50;

    private AtomFeed() {}

    /** The one service a feed is about. */
    record ServiceScope(String id, String name) {}

    static String render(
            List<Incident> incidents,
            Map<String, String> names,
            Branding branding,
            Instant now,
            Messages words,
            Optional<ServiceScope> service) {
        Instant updated = incidents.stream()
                .map(Incident::updatedAt)
                .max(Comparator.naturalOrder())
                .orElse(now);
        String title = branding.title(words);
        String feedTitle = service.map(s -> words.text("feed.title.service", title, s.name()))
                .orElseGet(() -> words.text("feed.title", title));
        String self = service.map(s -> "/status/feed.atom?service=" + URLEncoder.encode(s.id(), StandardCharsets.UTF_8))
                .orElse("/status/feed.atom");
        String feedId = "feed:" + branding.providerUrl().orElse(title)
                + service.map(s -> "#service:" + s.id()).orElse("");
        StringBuilder xml = new StringBuilder(1024 + incidents.size() * 1024);
        xml.append("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n")
                .append("<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"")
                .append(words.language().tag())
                .append("\">\n")
                .append("<id>")
                .append(urn(feedId))
                .append("</id>\n<title>")
                .append(Encode.forXml(feedTitle))
                .append("</title>\n<updated>")
                .append(Times.format(updated))
                .append("</updated>\n<author><name>")
                .append(Encode.forXml(branding.providerName().orElse(title)))
                .append("</name></author>\n")
                .append("<link rel=\"self\" type=\"application/atom+xml\" href=\"")
                .append(Encode.forXmlAttribute(self))
                .append("\"/>\n")
                .append("<link rel=\"alternate\" type=\"text/html\" href=\"/status/history\"/>\n");
        for (Incident incident : incidents) {
            entry(xml, incident, names, words);
        }
        return xml.append("</feed>\n").toString();
    }

    private static void entry(StringBuilder xml, Incident incident, Map<String, String> names, Messages words) {
        String summary = PageText.status(incident.status(), words) + " · " + PageText.impact(incident.impact(), words)
                + (incident.services().isEmpty()
                        ? ""
                        : " · "
                                + words.text(
                                        "affects",
                                        incident.services().stream()
                                                .map(id -> names.getOrDefault(id, id))
                                                .collect(Collectors.joining(", "))));
        StringBuilder timeline = new StringBuilder();
        for (IncidentUpdate update : incident.updates()) {
            timeline.append(PageText.status(update.status(), words))
                    .append(" (")
                    .append(Times.format(update.createdAt()))
                    .append("): ")
                    .append(update.message())
                    .append("\n\n");
        }
        xml.append("<entry>\n<id>")
                .append(urn(incident.id()))
                .append("</id>\n<title>")
                .append(Encode.forXml(incident.title()))
                .append("</title>\n<published>")
                .append(Times.format(incident.createdAt()))
                .append("</published>\n<updated>")
                .append(Times.format(incident.updatedAt()))
                .append("</updated>\n<link rel=\"alternate\" type=\"text/html\" href=\"/status/history\"/>\n<summary>")
                .append(Encode.forXml(summary))
                .append("</summary>\n<content type=\"text\">")
                .append(Encode.forXml(timeline.toString().strip()))
                .append("</content>\n</entry>\n");
    }

    /** A stable, globally unique id as Atom requires: a name-based UUID (incident ids are ULIDs). */
    private static String urn(String name) {
        return "urn:uuid:" + UUID.nameUUIDFromBytes(("pulseledger:" + name).getBytes(StandardCharsets.UTF_8));
    }
}
