package dev.pulseledger.status.subscribers;

import dev.pulseledger.config.MailSettings;
import dev.pulseledger.http.Json;
import dev.pulseledger.i18n.Messages;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeBodyPart;
import jakarta.mail.internet.MimeMessage;
import jakarta.mail.internet.MimeMultipart;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.Optional;
import org.owasp.encoder.Encode;

/**
 * Turns a claimed mail into a MIME message: multipart text and HTML (every operator-written string
 * escaped in the HTML), a subject {@code [<provider>] <Status>: <title>}, Date, a Message-ID that is
 * the same on every attempt (so a receiver can drop a repeat), and for subscribers' mails RFC 8058's
 * one-click {@code List-Unsubscribe}.
 */
final class MailComposer {
    static final String CONFIRM_PATH = "/status/subscriptions/confirm";
    static final String MANAGE_PATH = "/status/subscriptions/manage";
    static final String UNSUBSCRIBE_PATH = "/status/subscriptions/unsubscribe";

    private final MailSettings settings;
    private final MailWords words;
    private final String provider;
    private final String messageIdDomain;

    MailComposer(MailSettings settings, Optional<String> providerName, Messages pageWords) {
        this.settings = settings;
        this.words = new MailWords(pageWords);
        this.provider = words.provider(providerName);
        this.messageIdDomain = settings.from().substring(settings.from().lastIndexOf('@') + 1);
    }

    /** What one mail says, before it becomes MIME. */
    record Letter(String subject, String text, String html) {}

    MimeMessage compose(Session session, ClaimedMail mail, MailLinks links, Instant now) {
        Letter letter = switch (mail.kind()) {
            case "confirm" -> confirmation(links);
            case "manage" -> manageLink(links);
            default -> notice(payload(mail), links);
        };
        try {
            MimeMessage message = new StableIdMessage(session, "<" + mail.id() + "@" + messageIdDomain + ">");
            message.setFrom(new InternetAddress(settings.from(), provider, StandardCharsets.UTF_8.name()));
            message.setRecipient(MimeMessage.RecipientType.TO, new InternetAddress(mail.email(), true));
            message.setSubject(oneLine("[" + provider + "] " + letter.subject()), StandardCharsets.UTF_8.name());
            message.setSentDate(Date.from(now));
            if (links.unsubscribe().isPresent()) {
                message.setHeader(
                        "List-Unsubscribe",
                        "<" + link(UNSUBSCRIBE_PATH, links.unsubscribe().get()) + ">");
                message.setHeader("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
            }
            message.setHeader("Auto-Submitted", "auto-generated");
            MimeBodyPart text = new MimeBodyPart();
            text.setText(letter.text(), StandardCharsets.UTF_8.name(), "plain");
            MimeBodyPart html = new MimeBodyPart();
            html.setText(letter.html(), StandardCharsets.UTF_8.name(), "html");
            MimeMultipart alternative = new MimeMultipart("alternative");
            alternative.addBodyPart(text);
            alternative.addBodyPart(html);
            message.setContent(alternative);
            message.saveChanges();
            return message;
        } catch (MessagingException e) {
            throw new IllegalStateException("Could not build " + mail, e);
        } catch (java.io.UnsupportedEncodingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static NoticePayload payload(ClaimedMail mail) {
        try {
            return Json.mapper().readValue(mail.noticePayload().orElseThrow(), NoticePayload.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private Letter confirmation(MailLinks links) {
        String url = link(CONFIRM_PATH, links.confirm().orElseThrow());
        String intro = words.text("confirm.text", provider);
        String text = intro + "\n\n" + words.text("confirm.link") + ": " + url + "\n";
        String html = page(
                words.text("confirm.subject"),
                "<p>" + Encode.forHtml(intro) + "</p>\n<p><a href=\"" + Encode.forHtmlAttribute(url) + "\">"
                        + Encode.forHtml(words.text("confirm.link")) + "</a></p>\n");
        return new Letter(words.text("confirm.subject"), text, html);
    }

    private Letter manageLink(MailLinks links) {
        String intro = words.text("manage.text", provider);
        String text = intro + "\n\n" + footerText(links);
        String html = page(words.text("manage.subject"), "<p>" + Encode.forHtml(intro) + "</p>\n" + footerHtml(links));
        return new Letter(words.text("manage.subject"), text, html);
    }

    private Letter notice(NoticePayload notice, MailLinks links) {
        String status = words.status(notice);
        String heading = status + ": " + notice.title();
        String services =
                notice.serviceNames().isEmpty() ? words.text("all_services") : String.join(", ", notice.serviceNames());
        StringBuilder text = new StringBuilder(heading).append("\n\n");
        StringBuilder html = new StringBuilder();
        if (!notice.message().isBlank()) {
            text.append(notice.message()).append("\n\n");
            html.append("<p>").append(Encode.forHtml(notice.message())).append("</p>\n");
        }
        text.append(words.text("affected")).append(": ").append(services).append('\n');
        html.append("<p><strong>")
                .append(Encode.forHtml(words.text("affected")))
                .append(":</strong> ")
                .append(Encode.forHtml(services))
                .append("</p>\n");
        if (notice.startsAt() != null && notice.endsAt() != null) {
            String window = words.window(Instant.parse(notice.startsAt()), Instant.parse(notice.endsAt()));
            text.append(words.text("window")).append(": ").append(window).append('\n');
            html.append("<p><strong>")
                    .append(Encode.forHtml(words.text("window")))
                    .append(":</strong> ")
                    .append(Encode.forHtml(window))
                    .append("</p>\n");
        }
        String statusUrl = settings.baseUrl() + "/status";
        text.append('\n')
                .append(words.text("current_status"))
                .append(": ")
                .append(statusUrl)
                .append("\n\n");
        html.append("<p><a href=\"")
                .append(Encode.forHtmlAttribute(statusUrl))
                .append("\">")
                .append(Encode.forHtml(words.text("current_status")))
                .append("</a></p>\n");
        text.append(footerText(links));
        html.append(footerHtml(links));
        return new Letter(heading, text.toString(), page(heading, html.toString()));
    }

    private String footerText(MailLinks links) {
        return words.text("why", provider) + "\n" + words.text("manage") + ": "
                + link(MANAGE_PATH, links.manage().orElseThrow()) + "\n" + words.text("unsubscribe") + ": "
                + link(UNSUBSCRIBE_PATH, links.unsubscribe().orElseThrow()) + "\n";
    }

    private String footerHtml(MailLinks links) {
        return "<hr>\n<p><small>" + Encode.forHtml(words.text("why", provider)) + " <a href=\""
                + Encode.forHtmlAttribute(link(MANAGE_PATH, links.manage().orElseThrow())) + "\">"
                + Encode.forHtml(words.text("manage"))
                + "</a> · <a href=\""
                + Encode.forHtmlAttribute(
                        link(UNSUBSCRIBE_PATH, links.unsubscribe().orElseThrow()))
                + "\">" + Encode.forHtml(words.text("unsubscribe")) + "</a></small></p>\n";
    }

    private String page(String title, String body) {
        return "<!doctype html>\n<html lang=\"" + words.tag() + "\">\n<head><meta charset=\"utf-8\"><title>"
                + Encode.forHtml(title) + "</title></head>\n<body>\n<h1>" + Encode.forHtml(title) + "</h1>\n" + body
                + "</body>\n</html>\n";
    }

    private String link(String path, String token) {
        return settings.baseUrl() + path + "?token=" + URLEncoder.encode(token, StandardCharsets.UTF_8);
    }

    /** A header never carries a line break or another control character, whatever the title holds. */
    private static String oneLine(String text) {
        return text.codePoints()
                .map(c -> Character.isISOControl(c) ? ' ' : c)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
    }

    /** A message whose Message-ID is ours, set once, instead of a new one at each save. */
    private static final class StableIdMessage extends MimeMessage {
        private final String messageId;

        StableIdMessage(Session session, String messageId) {
            super(session);
            this.messageId = messageId;
        }

        @Override
        protected void updateMessageID() throws MessagingException {
            setHeader("Message-ID", messageId);
        }
    }
}
