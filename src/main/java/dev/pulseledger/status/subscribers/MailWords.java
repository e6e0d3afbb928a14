package dev.pulseledger.status.subscribers;

import java.util.Map;

/**
 * The fixed words of subscribers' mails and pages, in one place, so that the page's language (once
 * the status page has a bundle of its own) replaces them together.
 */
final class MailWords {
    private static final Map<String, String> NOTICE_STATUS = Map.ofEntries(
            Map.entry("status.incident.created", ""),
            Map.entry("status.incident.updated", ""),
            Map.entry("status.incident.resolved", "Resolved"),
            Map.entry("status.maintenance.scheduled", "Maintenance scheduled"),
            Map.entry("status.maintenance.changed", "Maintenance changed"),
            Map.entry("status.maintenance.cancelled", "Maintenance cancelled"),
            Map.entry("status.maintenance.started", "Maintenance started"),
            Map.entry("status.maintenance.completed", "Maintenance completed"));

    private static final Map<String, String> INCIDENT_STATUS = Map.of(
            "investigating", "Investigating",
            "identified", "Identified",
            "monitoring", "Monitoring",
            "resolved", "Resolved");

    private MailWords() {}

    /** The {@code <Status>} of a notice's subject: the incident's status, or what happened to the window. */
    static String status(NoticePayload notice) {
        String word = NOTICE_STATUS.getOrDefault(notice.type(), "");
        if (!word.isEmpty()) {
            return word;
        }
        return INCIDENT_STATUS.getOrDefault(notice.status(), "Update");
    }

    /** The page's name in subjects and greetings: the provider's, or a plain one. */
    static String provider(java.util.Optional<String> providerName) {
        return providerName.orElse("Service status");
    }

    static final String CONFIRM_SUBJECT = "Confirm your subscription";
    static final String MANAGE_SUBJECT = "Your subscription";
    static final String AFFECTED = "Affected services";
    static final String ALL_SERVICES = "All services";
    static final String WINDOW = "Window";
    static final String CURRENT_STATUS = "Current status";
    static final String MANAGE = "Change your services or leave";
    static final String UNSUBSCRIBE = "Unsubscribe";
    static final String WHY = "You get this mail because this address subscribed to the status notices of %s.";
    static final String CONFIRM_TEXT = "Someone, we hope you, asked for the status notices of %s at this address."
            + " Confirm within 24 hours with the link below; until then nothing else is sent. If it was not"
            + " you, ignore this mail: the request expires on its own.";
    static final String CONFIRM_LINK = "Confirm your subscription";
    static final String MANAGE_TEXT = "This address already receives the status notices of %s. Change the"
            + " services it follows, or leave, with the link below. If you did not ask, ignore this mail.";
}
