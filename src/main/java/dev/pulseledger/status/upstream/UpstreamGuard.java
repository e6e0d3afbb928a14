package dev.pulseledger.status.upstream;

import dev.pulseledger.config.HostAllowList;
import dev.pulseledger.outbound.ReachableAddresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;

/**
 * Keeps upstream polling from becoming a server-side request forgery: only https (plain http for
 * allowed hosts), no credentials in the URL, and no private, loopback, link-local, multicast or
 * unspecified address among those the host resolves to, unless the allow list excuses the host or
 * the address. Every hop of a redirect is checked again.
 */
public final class UpstreamGuard {
    public static final int MAX_URL_LENGTH = 2048;

    private final ReachableAddresses addresses;

    public UpstreamGuard(HostAllowList allowed) {
        this.addresses = new ReachableAddresses(allowed);
    }

    /** Why the URL may not be stored or followed, checked without asking DNS; empty when it may. */
    public Optional<String> refuseUrl(String text) {
        if (text.length() > MAX_URL_LENGTH) {
            return Optional.of("must be at most " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            return Optional.of("must be a valid absolute URL");
        }
        return refuse(uri);
    }

    /** Why {@code uri} may not be followed by its form alone (scheme, host, credentials); empty when it may. */
    Optional<String> refuse(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            return Optional.of("must be an absolute https URL with a host");
        }
        boolean excused = addresses.excuses(uri.getHost());
        if (!scheme.equals("https") && !(scheme.equals("http") && excused)) {
            return Optional.of("must use https (plain http only for hosts allowed by --upstream-allow-http)");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("must not contain credentials");
        }
        return Optional.empty();
    }

    /**
     * Why a URL may not be stored, by the addresses its host resolves to now: an internal one is
     * refused at once, while a name that does not resolve yet is left for the polls to report.
     */
    public Optional<String> refuseResolvedAtWrite(String url) {
        return addresses.refuseAtWrite(URI.create(url).getHost());
    }

    /** Why the host may not be reached at the addresses it resolves to now; empty when it may. */
    Optional<String> refuseAddresses(URI uri) {
        return addresses.refuse(uri.getHost());
    }
}
