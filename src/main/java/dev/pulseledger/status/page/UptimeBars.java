package dev.pulseledger.status.page;

import dev.pulseledger.i18n.Language;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.services.ServiceStatus;
import java.util.Comparator;
import java.util.List;
import org.owasp.encoder.Encode;

/**
 * One bar per UTC day, coloured by the day's worst status, with the period's percentage in words
 * and the whole row described as one image for screen readers (the bars themselves are hidden).
 */
final class UptimeBars {
    /** Days with trouble the description names one by one; the rest are counted. */
    static final int MAX_DAYS_DESCRIBED = 5;

    private UptimeBars() {}

    static void render(StringBuilder html, UptimeReport report, Messages words) {
        int days = report.days().size();
        html.append("<div class=\"uptime\">\n<div class=\"bars\" role=\"img\" aria-label=\"")
                .append(Encode.forHtmlAttribute(description(report, words)))
                .append("\">\n");
        for (UptimeReport.Day day : report.days()) {
            html.append("<span class=\"").append(barClass(day)).append('"');
            // Only a day with something to tell gets a tooltip: 90 bars a service stay small.
            if (day.worst().isPresent() && day.worst().get() != ServiceStatus.OPERATIONAL) {
                html.append(" title=\"")
                        .append(Encode.forHtmlAttribute(PageText.date(day.date(), words) + ": "
                                + words.text("uptime.percent", PageText.percent(day.uptime(), words))))
                        .append('"');
            }
            html.append("></span>");
        }
        html.append('\n');
        html.append("</div>\n<p class=\"uptime-legend\"><span class=\"wide\">")
                .append(Encode.forHtml(words.text("uptime.days_ago", days)))
                .append("</span><span class=\"narrow\">")
                .append(Encode.forHtml(words.text("uptime.days_ago", Math.min(days, 30))))
                .append("</span><span class=\"uptime-percent\">")
                .append(Encode.forHtml(
                        report.uptime().isPresent()
                                ? words.text("uptime.percent", PageText.percent(report.uptime(), words))
                                : PageText.percent(report.uptime(), words)))
                .append("</span><span>")
                .append(Encode.forHtml(words.text("uptime.today")))
                .append("</span></p>\n</div>\n");
    }

    /** A short class per day's worst status (status.css colours it): bars are the bulk of the page. */
    private static String barClass(UptimeReport.Day day) {
        return day.worst()
                .map(status -> switch (status) {
                    case OPERATIONAL -> "ok";
                    case DEGRADED_PERFORMANCE -> "dp";
                    case PARTIAL_OUTAGE -> "po";
                    case MAJOR_OUTAGE -> "mo";
                    case UNDER_MAINTENANCE -> "um";
                    case UNKNOWN -> "uk";
                })
                .orElse("nd");
    }

    /** The text alternative: the period's uptime, then the worst days. */
    static String description(UptimeReport report, Messages words) {
        StringBuilder text = new StringBuilder(
                words.text("uptime.description", report.days().size(), PageText.percent(report.uptime(), words)));
        List<UptimeReport.Day> trouble = report.days().stream()
                .filter(day -> day.worst().isPresent()
                        && day.worst().get().severity() > ServiceStatus.UNDER_MAINTENANCE.severity())
                .sorted(Comparator.comparing(
                        (UptimeReport.Day day) -> day.uptime().orElse(1.0)))
                .toList();
        if (trouble.isEmpty()) {
            return text.append(' ').append(words.text("uptime.no_outages")).toString();
        }
        StringBuilder days = new StringBuilder();
        for (int i = 0; i < Math.min(trouble.size(), MAX_DAYS_DESCRIBED); i++) {
            UptimeReport.Day day = trouble.get(i);
            days.append(i == 0 ? "" : "; ")
                    .append(PageText.date(day.date(), words))
                    .append(", ")
                    .append(inSentence(
                            StatusWords.of(day.worst().orElseThrow(), words).label(), words))
                    .append(", ")
                    .append(PageText.percent(day.uptime(), words));
        }
        if (trouble.size() > MAX_DAYS_DESCRIBED) {
            days.append("; ").append(words.text("uptime.more", trouble.size() - MAX_DAYS_DESCRIBED));
        }
        return text.append(' ').append(words.text("uptime.trouble", days)).toString();
    }

    /** English writes a status inside a sentence in lower case; German keeps its nouns capitalised. */
    private static String inSentence(String label, Messages words) {
        return words.language() == Language.DE
                ? label
                : label.toLowerCase(words.language().locale());
    }
}
