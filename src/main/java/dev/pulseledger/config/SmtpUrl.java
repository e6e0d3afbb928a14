package dev.pulseledger.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where subscribers' mail goes: {@code smtp://[user:password@]host[:port]} (STARTTLS whenever the
 * server offers it) or {@code smtps://…} (TLS from the first byte). The password is kept out of
 * {@link #toString()}, so no log line or error message can carry it.
 */
public record SmtpUrl(boolean implicitTls, String host, int port, Optional<String> user, Optional<String> password) {
    private static final int MAX_LENGTH = 2000;

    public SmtpUrl {
        if (host.isEmpty() || port < 1 || port > 65535) {
            throw new IllegalArgumentException("An SMTP URL needs a host and a port from 1 to 65535");
        }
    }

    /** The URL's parts, or empty when it is not an smtp:// or smtps:// URL with a host. */
    public static Optional<SmtpUrl> parse(String text) {
        if (text.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        String scheme = uri.getScheme();
        if (!("smtp".equals(scheme) || "smtps".equals(scheme))
                || uri.getHost() == null
                || (uri.getRawPath() != null
                        && !uri.getRawPath().isEmpty()
                        && !uri.getRawPath().equals("/"))
                || uri.getRawQuery() != null
                || uri.getRawFragment() != null) {
            return Optional.empty();
        }
        boolean implicitTls = "smtps".equals(scheme);
        int port = uri.getPort() == -1 ? (implicitTls ? 465 : 587) : uri.getPort();
        Optional<String> user = Optional.empty();
        Optional<String> password = Optional.empty();
        String info = uri.getRawUserInfo();
        if (info != null) {
            int colon = info.indexOf(':');
            user = Optional.of(decode(colon < 0 ? info : info.substring(0, colon)));
            password = colon < 0 ? Optional.empty() : Optional.of(decode(info.substring(colon + 1)));
        }
        if (user.isPresent() && user.get().isEmpty()) {
            return Optional.empty();
        }
        String host = uri.getHost().startsWith("[")
                ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        return Optional.of(new SmtpUrl(implicitTls, host, port, user, password));
    }

    private static String decode(String part) {
        return URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The URL without its password, fit for a log line. */
    @Override
    public String toString() {
        return (implicitTls ? "smtps://" : "smtp://")
                + user.map(u -> u + (password.isPresent() ? ":(hidden)@" : "@")).orElse("")
                + (host.contains(":") ? "[" + host + "]" : host)
                + ":"
                + port;
    }
}
