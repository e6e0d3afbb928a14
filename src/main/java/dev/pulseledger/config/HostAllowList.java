package dev.pulseledger.config;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Hosts an outgoing request may reach although it would be refused otherwise (plain http, or a
 * private, loopback or link-local address): host names matched exactly, and IP addresses or CIDR
 * ranges, such as {@code status.internal,10.0.0.0/8}. Empty: nothing is excused.
 */
public record HostAllowList(Set<String> hostNames, AddressRanges addresses) {
    private static final Pattern HOST_NAME =
            Pattern.compile("(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*");
    private static final int MAX_ITEMS = 100;

    public HostAllowList {
        hostNames = Set.copyOf(hostNames);
    }

    public static HostAllowList none() {
        return new HostAllowList(Set.of(), AddressRanges.none());
    }

    /** Whether the host, as written in a URL, is on the list by name or as an address literal. */
    public boolean allowsHost(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (hostNames.contains(name)) {
            return true;
        }
        return AddressRanges.literal(unbracketed(name)).map(addresses::contains).orElse(false);
    }

    /** Whether an address a name resolved to is excused by the list's ranges. */
    public boolean allowsAddress(InetAddress address) {
        return addresses.contains(address);
    }

    private static String unbracketed(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Comma-separated host names, addresses or CIDR ranges; empty text means none. */
    static Optional<HostAllowList> parse(String text) {
        List<String> names = new ArrayList<>();
        List<String> ranges = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String item = part.strip().toLowerCase(Locale.ROOT);
            if (item.isEmpty() && text.isBlank()) {
                continue;
            }
            if (names.size() + ranges.size() == MAX_ITEMS) {
                return Optional.empty();
            }
            if (AddressRanges.parse(item).isPresent()) {
                ranges.add(item);
            } else if (HOST_NAME.matcher(item).matches()) {
                names.add(item);
            } else {
                return Optional.empty();
            }
        }
        return AddressRanges.parse(String.join(",", ranges))
                .map(parsed -> new HostAllowList(Set.copyOf(names), parsed));
    }
}
