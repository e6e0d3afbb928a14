package dev.pulseledger.status.upstream;

import dev.pulseledger.config.HostAllowList;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
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
    private static final String UNRESOLVED = "the host does not resolve";

    private final HostAllowList allowed;

    public UpstreamGuard(HostAllowList allowed) {
        this.allowed = allowed;
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
        boolean excused = allowed.allowsHost(uri.getHost());
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
        Optional<String> refused = refuseAddresses(URI.create(url));
        return refused.filter(why -> !why.equals(UNRESOLVED));
    }

    /**
     * Why the host may not be reached at the addresses it resolves to now; empty when every one of
     * them is public or excused. A name that does not resolve is refused too.
     */
    Optional<String> refuseAddresses(URI uri) {
        String host = uri.getHost();
        if (allowed.allowsHost(host)) {
            return Optional.empty();
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(unbracketed(host));
        } catch (UnknownHostException e) {
            return Optional.of(UNRESOLVED);
        }
        for (InetAddress address : addresses) {
            if (isInternal(address) && !allowed.allowsAddress(address)) {
                return Optional.of("the host resolves to a private, loopback or link-local address");
            }
        }
        return Optional.empty();
    }

    /** Addresses that name this machine or a private network rather than the public internet. */
    static boolean isInternal(InetAddress address) {
        if (address.isLoopbackAddress()
                || address.isAnyLocalAddress()
                || address.isLinkLocalAddress()
                || address.isSiteLocalAddress()
                || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            // fc00::/7, unique local addresses; and IPv4 addresses mapped or embedded into IPv6.
            return (bytes[0] & 0xfe) == 0xfc || isMappedInternal(bytes);
        }
        int first = bytes[0] & 0xff;
        int second = bytes[1] & 0xff;
        // 100.64.0.0/10 carrier-grade NAT, 0.0.0.0/8 and 240.0.0.0/4 reserved, 192.0.0.0/24 protocol assignments.
        return (first == 100 && second >= 64 && second < 128)
                || first == 0
                || first >= 240
                || (first == 192 && second == 0 && (bytes[2] & 0xff) == 0);
    }

    private static boolean isMappedInternal(byte[] bytes) {
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        if ((bytes[10] & 0xff) != 0xff || (bytes[11] & 0xff) != 0xff) {
            return false;
        }
        try {
            return isInternal(InetAddress.getByAddress(new byte[] {bytes[12], bytes[13], bytes[14], bytes[15]}));
        } catch (UnknownHostException e) {
            return true;
        }
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
