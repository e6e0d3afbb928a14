package dev.pulseledger.status.subscribers;

import dev.pulseledger.i18n.Messages;
import java.util.Optional;
import java.util.Set;

/**
 * The fixed words of subscribers' mails, from the status page's bundle in the page's language
 * (CONTRACT §16), so that a German page sends German mails.
 */
final class MailWords {
    private static final Set<String> MAINTENANCE_NOTICES = Set.of(
            "status.maintenance.scheduled",
            "status.maintenance.changed",
            "status.maintenance.cancelled",
            "status.maintenance.started",
            "status.maintenance.completed");
    private static final Set<String> INCIDENT_STATUSES =
            Set.of("investigating", "identified", "monitoring", "resolved");

    private final Messages words;

    MailWords(Messages words) {
        this.words = words;
    }

    /** The {@code <Status>} of a notice's subject: what happened to the window, or the incident's status. */
    String status(NoticePayload notice) {
        if (MAINTENANCE_NOTICES.contains(notice.type())) {
            return words.text("mail." + notice.type());
        }
        if ("status.incident.resolved".equals(notice.type())) {
            return words.text("incident.resolved");
        }
        return INCIDENT_STATUSES.contains(notice.status())
                ? words.text("incident." + notice.status())
                : words.text("mail.status.update");
    }

    /** The page's name in subjects and greetings: the provider's, or a plain one. */
    String provider(Optional<String> providerName) {
        return providerName.orElseGet(() -> words.text("title.default"));
    }

    /** A mail's word: {@code mail.<key>} of the bundle, placeholders filled. */
    String text(String key, Object... args) {
        return words.text("mail." + key, args);
    }

    String window(java.time.Instant startsAt, java.time.Instant endsAt) {
        return words.text("maintenance.window", words.dateTime(startsAt), words.dateTime(endsAt));
    }

    /** The language's tag, for {@code <html lang>}. */
    String tag() {
        return words.language().tag();
    }
}
