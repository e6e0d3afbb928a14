package dev.pulseledger.status.page;

import dev.pulseledger.http.Times;
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.MaintenanceStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;

/** The words and times the status page and its feeds write for people. */
final class PageText {
    private static final DateTimeFormatter HUMAN_TIME = DateTimeFormatter.ofPattern(
                    "d MMM yyyy, HH:mm 'UTC'", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter HUMAN_DATE =
            DateTimeFormatter.ofPattern("d MMM yyyy", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private PageText() {}

    /** A time for people, inside a machine-readable {@code <time>}. */
    static String time(Instant at) {
        return "<time datetime=\"" + Times.format(at) + "\">" + HUMAN_TIME.format(at) + "</time>";
    }

    static String date(LocalDate date) {
        return HUMAN_DATE.format(date.atStartOfDay(ZoneOffset.UTC));
    }

    /** An uptime as people read it: floored, so any downtime shows below 100 %. */
    static String percent(Optional<Double> uptime) {
        return uptime.map(u -> String.format(Locale.ROOT, "%.2f %%", Math.floor(u * 10_000) / 100))
                .orElse("No data");
    }

    static String status(IncidentStatus status) {
        return switch (status) {
            case INVESTIGATING -> "Investigating";
            case IDENTIFIED -> "Identified";
            case MONITORING -> "Monitoring";
            case RESOLVED -> "Resolved";
        };
    }

    static String impact(IncidentImpact impact) {
        return switch (impact) {
            case NONE -> "No impact";
            case MINOR -> "Minor impact";
            case MAJOR -> "Major impact";
            case CRITICAL -> "Critical impact";
        };
    }

    static String status(MaintenanceStatus status) {
        return switch (status) {
            case SCHEDULED -> "Scheduled";
            case IN_PROGRESS -> "In progress";
            case COMPLETED -> "Completed";
        };
    }
}
