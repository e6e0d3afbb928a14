package dev.pulseledger.webhooks;

import dev.pulseledger.http.ProblemException;
import dev.pulseledger.outbound.ReachableAddresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Checks an operator's webhook URL before it is stored: an absolute http or https URL with a host,
 * no credentials and no fragment, of bounded length, whose host does not resolve to a private, loopback or
 * link-local address unless {@code --webhook-allow-private} allows it (no server-side request forgery); and
 * before each delivery, the host's addresses again.
 */
public final class WebhookUrls {
    public static final int MAX_URL_LENGTH = 2048;

    private final ReachableAddresses addresses;

    public WebhookUrls(ReachableAddresses addresses) {
        this.addresses = addresses;
    }

    /** The URL as it is stored, or 400 naming {@code url} and why. */
    public String check(String text) {
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
        Optional<String> internal = addresses.refuseAtWrite(uri.getHost());
        if (internal.isPresent()) {
            throw invalid(
                    "must not reach a private address: " + internal.get() + " (allow it with --webhook-allow-private)");
        }
        return uri.toString();
    }

    /** Why a delivery to the stored {@code url} may not be sent now (its host resolves inside); empty when it may. */
    Optional<String> refuseDelivery(String url) {
        return addresses.refuse(URI.create(url).getHost());
    }

    private static ProblemException invalid(String why) {
        return ProblemException.invalidField("url", why);
    }
}
