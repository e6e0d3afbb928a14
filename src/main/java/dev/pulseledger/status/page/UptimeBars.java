package dev.pulseledger.status.page;

import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.services.ServiceStatus;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.owasp.encoder.Encode;

/**
 * One bar per UTC day, coloured by the day's worst status, with the period's percentage in words
 * and the whole row described as one image for screen readers (the bars themselves are hidden).
 */
final class UptimeBars {
    /** Days with trouble the description names one by one; the rest are counted. */
    static final int MAX_DAYS_DESCRIBED = 5;

    private UptimeBars() {}

    static void render(StringBuilder html, UptimeReport report) {
        int days = report.days().size();
        html.append("<div class=\"uptime\">\n<div class=\"bars\" role=\"img\" aria-label=\"")
                .append(Encode.forHtmlAttribute(description(report)))
                .append("\">\n");
        for (UptimeReport.Day day : report.days()) {
            html.append("<span class=\"").append(barClass(day)).append('"');
            // Only a day with something to tell gets a tooltip: 90 bars a service stay small.
            if (day.worst().isPresent() && day.worst().get() != ServiceStatus.OPERATIONAL) {
                html.append(" title=\"")
                        .append(PageText.date(day.date()))
                        .append(": ")
                        .append(PageText.percent(day.uptime()))
                        .append(" uptime\"");
            }
            html.append("></span>");
        }
        html.append('\n');
        html.append("</div>\n<p class=\"uptime-legend\"><span class=\"wide\">")
                .append(days)
                .append(" days ago</span><span class=\"narrow\">")
                .append(Math.min(days, 30))
                .append(" days ago</span><span class=\"uptime-percent\">")
                .append(PageText.percent(report.uptime()))
                .append(report.uptime().isPresent() ? " uptime" : "")
                .append("</span><span>Today</span></p>\n</div>\n");
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
    static String description(UptimeReport report) {
        StringBuilder text = new StringBuilder("Uptime over the last ")
                .append(report.days().size())
                .append(" days: ")
                .append(PageText.percent(report.uptime()))
                .append(".");
        List<UptimeReport.Day> trouble = report.days().stream()
                .filter(day -> day.worst().isPresent()
                        && day.worst().get().severity() > ServiceStatus.UNDER_MAINTENANCE.severity())
                .sorted(Comparator.comparing(
                        (UptimeReport.Day day) -> day.uptime().orElse(1.0)))
                .toList();
        if (trouble.isEmpty()) {
            return text.append(" No outages.").toString();
        }
        text.append(" Days with trouble: ");
        for (int i = 0; i < Math.min(trouble.size(), MAX_DAYS_DESCRIBED); i++) {
            UptimeReport.Day day = trouble.get(i);
            text.append(i == 0 ? "" : "; ")
                    .append(PageText.date(day.date()))
                    .append(", ")
                    .append(StatusWords.of(day.worst().orElseThrow()).label().toLowerCase(Locale.ROOT))
                    .append(", ")
                    .append(PageText.percent(day.uptime()));
        }
        if (trouble.size() > MAX_DAYS_DESCRIBED) {
            text.append("; and ").append(trouble.size() - MAX_DAYS_DESCRIBED).append(" more");
        }
        return text.append(".").toString();
    }
}
