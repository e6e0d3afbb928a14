package dev.pulseledger.webhooks;

import dev.pulseledger.http.ProblemException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Checks an operator's webhook URL before it is stored: an absolute http or https URL with a host,
 * no credentials and no fragment, of bounded length. Which addresses a node may reach is left to
 * the network (see docs/WEBHOOKS.md on SSRF): the operator choosing the URL holds the admin key.
 */
public final class WebhookUrls {
    public static final int MAX_URL_LENGTH = 2048;

    private WebhookUrls() {}

    public static String check(String text) {
        if (text.length() > MAX_URL_LENGTH) {
            throw invalid("must be at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw invalid("must be a valid absolute URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw invalid("must start with http:// or https://");
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw invalid("must name a host");
        }
        if (uri.getRawUserInfo() != null) {
            throw invalid("must not contain credentials; receivers authenticate deliveries by their signature");
        }
        if (uri.getRawFragment() != null) {
            throw invalid("must not contain a fragment");
        }
        return uri.toString();
    }

    private static ProblemException invalid(String why) {
        return ProblemException.invalidField("url", why);
    }
}
