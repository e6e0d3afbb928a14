package dev.pulseledger.status.page;

import dev.pulseledger.http.Times;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.MaintenanceStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import org.owasp.encoder.Encode;

/** The words and times the status page and its feeds write for people, in the page's language. */
final class PageText {
    private PageText() {}

    /** A time for people, inside a machine-readable {@code <time>}. */
    static String time(Instant at, Messages words) {
        return "<time datetime=\"" + Times.format(at) + "\">" + words.dateTime(at) + "</time>";
    }

    static String date(LocalDate date, Messages words) {
        return words.date(date);
    }

    /** An uptime as people read it: floored, so any downtime shows below 100 %. */
    static String percent(Optional<Double> uptime, Messages words) {
        return uptime.map(words::percent).orElse(words.text("uptime.no_data"));
    }

    static String status(IncidentStatus status, Messages words) {
        return words.text("incident." + status.wire());
    }

    static String impact(IncidentImpact impact, Messages words) {
        return words.text("impact." + impact.wire());
    }

    static String status(MaintenanceStatus status, Messages words) {
        return words.text("maintenance." + status.wire());
    }

    /**
     * The HTML of a message whose placeholders are markup made by the caller (links): the message's
     * own text is escaped, the pieces are put in as they are.
     */
    static String html(Messages words, String key, String... markup) {
        String html = Encode.forHtml(words.text(key));
        for (int i = 0; i < markup.length; i++) {
            html = html.replace("{" + i + "}", markup[i]);
        }
        return html;
    }
}
