package dev.pulseledger.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** IP address ranges in CIDR notation ({@code 10.0.0.0/8}, {@code ::1}), such as the trusted proxies. */
public record AddressRanges(List<Range> ranges) {
    private static final Pattern LITERAL = Pattern.compile("[0-9A-Fa-f:.]{2,45}");
    private static final int MAX_RANGES = 100;

    public AddressRanges {
        ranges = List.copyOf(ranges);
    }

    /** One range: the addresses whose first {@code prefixBits} bits equal the network's. */
    public record Range(InetAddress network, int prefixBits) {
        boolean contains(InetAddress address) {
            byte[] net = network.getAddress();
            byte[] bytes = address.getAddress();
            if (net.length != bytes.length) {
                return false;
            }
            for (int bit = 0; bit < prefixBits; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((net[bit / 8] & mask) != (bytes[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }

    public static AddressRanges none() {
        return new AddressRanges(List.of());
    }

    public boolean contains(InetAddress address) {
        return ranges.stream().anyMatch(range -> range.contains(address));
    }

    /** An IP address written as a literal; never a name, so parsing never asks DNS. */
    public static Optional<InetAddress> literal(String text) {
        if (!LITERAL.matcher(text).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(text));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** Comma-separated addresses or ranges; empty text means none. */
    static Optional<AddressRanges> parse(String text) {
        List<Range> ranges = new ArrayList<>();
        for (String part : text.split(",", -1)) {
            String item = part.trim();
            if (item.isEmpty() && text.isBlank()) {
                continue;
            }
            Optional<Range> range = range(item);
            if (range.isEmpty() || ranges.size() == MAX_RANGES) {
                return Optional.empty();
            }
            ranges.add(range.get());
        }
        return Optional.of(new AddressRanges(ranges));
    }

    private static Optional<Range> range(String item) {
        int slash = item.indexOf('/');
        Optional<InetAddress> network = literal(slash < 0 ? item : item.substring(0, slash));
        if (network.isEmpty()) {
            return Optional.empty();
        }
        int maxBits = network.get().getAddress().length * 8;
        if (slash < 0) {
            return Optional.of(new Range(network.get(), maxBits));
        }
        try {
            int bits = Integer.parseInt(item.substring(slash + 1));
            return bits >= 0 && bits <= maxBits ? Optional.of(new Range(network.get(), bits)) : Optional.empty();
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
