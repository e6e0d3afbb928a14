package dev.pulseledger.support;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetup;
import jakarta.mail.BodyPart;
import jakarta.mail.MessagingException;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real SMTP server (GreenMail) on a free loopback port for tests, with what the tests read from the
 * mails it received: per recipient, in arrival order, with subject, headers and both parts.
 */
public final class MailServer implements AutoCloseable {
    private static final Pattern LINK = Pattern.compile("(https?://[^\\s\"<>]+\\?token=([A-Za-z0-9_-]+))");

    private final int port;
    private GreenMail greenMail;

    private MailServer(int port, GreenMail greenMail) {
        this.port = port;
        this.greenMail = greenMail;
    }

    /** A server on a free port. */
    public static MailServer start() {
        GreenMail greenMail = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP).dynamicPort());
        greenMail.start();
        return new MailServer(greenMail.getSmtp().getPort(), greenMail);
    }

    public int port() {
        return port;
    }

    public String url() {
        return "smtp://127.0.0.1:" + port;
    }

    /** Stops accepting mail (connections are refused) until {@link #restart}. */
    public void stop() {
        greenMail.stop();
    }

    /** Starts again on the same port, with an empty inbox. */
    public void restart() {
        greenMail = new GreenMail(new ServerSetup(port, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        greenMail.start();
    }

    /** One received mail, read. */
    public record Mail(String to, String subject, String text, String html, MimeMessage message) {
        public Optional<String> header(String name) {
            try {
                String[] values = message.getHeader(name);
                return values == null ? Optional.empty() : Optional.of(values[0]);
            } catch (MessagingException e) {
                throw new IllegalStateException(e);
            }
        }

        /** The first link whose path ends with {@code pathEnd}, as in the text part. */
        public String link(String pathEnd) {
            Matcher m = LINK.matcher(text);
            while (m.find()) {
                if (m.group(1).contains(pathEnd + "?")) {
                    return m.group(1);
                }
            }
            throw new AssertionError("No " + pathEnd + " link in: " + text);
        }
    }

    /** Every mail received so far, in arrival order. */
    public List<Mail> all() {
        List<Mail> mails = new ArrayList<>();
        for (MimeMessage message : greenMail.getReceivedMessages()) {
            mails.add(read(message));
        }
        return mails;
    }

    /** How many mails arrived so far, without reading them. */
    public int count() {
        return greenMail.getReceivedMessages().length;
    }

    public List<Mail> to(String address) {
        return all().stream().filter(m -> m.to().equalsIgnoreCase(address)).toList();
    }

    private static Mail read(MimeMessage message) {
        try {
            String to = Arrays.stream(message.getAllRecipients())
                    .map(Object::toString)
                    .findFirst()
                    .orElse("");
            String text = "";
            String html = "";
            if (message.getContent() instanceof Multipart multipart) {
                for (int i = 0; i < multipart.getCount(); i++) {
                    BodyPart part = multipart.getBodyPart(i);
                    if (part.isMimeType("text/plain")) {
                        text = (String) part.getContent();
                    } else if (part.isMimeType("text/html")) {
                        html = (String) part.getContent();
                    }
                }
            } else {
                text = String.valueOf(message.getContent());
            }
            return new Mail(to, message.getSubject(), text, html, message);
        } catch (MessagingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        greenMail.stop();
    }
}
