package dev.pulseledger.outbound;

import dev.pulseledger.config.HostAllowList;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Which hosts this node may send requests to (upstream status pages, webhook receivers): none whose name
 * resolves to a private, loopback, link-local, multicast or unspecified address, unless the allow list
 * excuses the host or the address. Checked just before each request, so a name that moves to an internal
 * address later is refused then; the HTTP client resolves the name once more to connect, a window of
 * milliseconds that an attacker's DNS could still use (docs/SECURITY.md).
 */
public final class ReachableAddresses {
    /** The reason given for a host name that does not resolve. */
    public static final String UNRESOLVED = "the host does not resolve";

    private final HostAllowList allowed;

    public ReachableAddresses(HostAllowList allowed) {
        this.allowed = allowed;
    }

    /** Whether the allow list names this host itself (so neither its scheme nor its addresses are held against it). */
    public boolean excuses(String host) {
        return allowed.allowsHost(host);
    }

    /**
     * Why {@code host} may not be reached at the addresses it resolves to now; empty when every one of
     * them is public or excused. A name that does not resolve is refused too ({@link #UNRESOLVED}).
     */
    public Optional<String> refuse(String host) {
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

    /**
     * Why a URL's host may not be stored: an internal address is refused at once, while a name that does not
     * resolve yet is left for the requests to report.
     */
    public Optional<String> refuseAtWrite(String host) {
        return refuse(host).filter(why -> !why.equals(UNRESOLVED));
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
