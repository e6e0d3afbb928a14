package dev.pulseledger.status.subscribers;

import dev.pulseledger.config.SmtpUrl;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.MimeMessage;
import java.time.Duration;
import java.util.Properties;
import java.util.regex.Pattern;
import org.eclipse.angus.mail.smtp.SMTPAddressFailedException;
import org.eclipse.angus.mail.smtp.SMTPSendFailedException;

/**
 * Sends through the configured SMTP server with Jakarta Mail (Eclipse Angus): STARTTLS whenever an
 * {@code smtp://} server offers it, TLS from the first byte for {@code smtps://}, the server's name
 * checked against its certificate, and every network step under a timeout. One connection serves a
 * batch of mails.
 */
final class SmtpMailer {
    private static final Pattern ADDRESS = Pattern.compile("[^\\s<>\"',;:]+@[^\\s<>\"',;:]+");
    private static final int MAX_ERROR_LENGTH = 300;

    private final SmtpUrl url;
    private final Session session;

    SmtpMailer(SmtpUrl url, Duration timeout) {
        this.url = url;
        String protocol = url.implicitTls() ? "smtps" : "smtp";
        Properties properties = new Properties();
        String prefix = "mail." + protocol + ".";
        properties.setProperty("mail.transport.protocol", protocol);
        properties.setProperty(prefix + "host", url.host());
        properties.setProperty(prefix + "port", Integer.toString(url.port()));
        properties.setProperty(prefix + "connectiontimeout", Long.toString(timeout.toMillis()));
        properties.setProperty(prefix + "timeout", Long.toString(timeout.toMillis()));
        properties.setProperty(prefix + "writetimeout", Long.toString(timeout.toMillis()));
        properties.setProperty(prefix + "auth", Boolean.toString(url.user().isPresent()));
        properties.setProperty(prefix + "ssl.checkserveridentity", "true");
        if (!url.implicitTls()) {
            properties.setProperty("mail.smtp.starttls.enable", "true");
        }
        this.session = Session.getInstance(properties);
    }

    Session session() {
        return session;
    }

    /** An open connection to the server; close it after the batch. */
    Transport connect() throws MessagingException {
        Transport transport = session.getTransport();
        transport.connect(
                url.host(), url.port(), url.user().orElse(null), url.password().orElse(null));
        return transport;
    }

    static void send(Transport transport, MimeMessage message) throws MessagingException {
        transport.sendMessage(message, message.getAllRecipients());
    }

    /** Whether the server's refusal was final (a 5xx reply), as opposed to "try again later" (4xx). */
    static boolean permanent(MessagingException e) {
        for (Exception cause = e; cause != null; ) {
            int code = switch (cause) {
                case SMTPAddressFailedException failed -> failed.getReturnCode();
                case SMTPSendFailedException failed -> failed.getReturnCode();
                default -> 0;
            };
            if (code >= 500) {
                return true;
            }
            cause = cause instanceof MessagingException m ? m.getNextException() : null;
        }
        return false;
    }

    /**
     * What went wrong, short, for the mail's record and a log line: the server's words without any
     * address in them (addresses are personal data) and never the password.
     */
    String describe(Exception e) {
        String text = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        if (url.password().isPresent() && !url.password().get().isEmpty()) {
            text = text.replace(url.password().get(), "(hidden)");
        }
        text = ADDRESS.matcher(text).replaceAll("(address)").replaceAll("[\\r\\n]+", " ");
        return text.length() <= MAX_ERROR_LENGTH ? text : text.substring(0, MAX_ERROR_LENGTH);
    }

    @Override
    public String toString() {
        return "SMTP " + url;
    }
}
