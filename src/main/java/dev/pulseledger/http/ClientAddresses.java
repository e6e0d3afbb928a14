package dev.pulseledger.http;

import dev.pulseledger.config.AddressRanges;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The address a request comes from: its TCP peer, or, when the peer is a trusted proxy, the nearest
 * hop of {@code X-Forwarded-For} that is not a trusted proxy. From any other peer the header is
 * ignored, since a client can write whatever it likes there.
 */
public final class ClientAddresses {
    private final AddressRanges trustedProxies;

    public ClientAddresses(AddressRanges trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    public String of(ServerRequest req) {
        SocketAddress peer = req.remotePeer().address();
        if (!(peer instanceof InetSocketAddress socket) || socket.getAddress() == null) {
            return peer.toString();
        }
        InetAddress client = socket.getAddress();
        List<String> hops = forwardedHops(req);
        for (int i = hops.size() - 1; i >= 0 && trustedProxies.contains(client); i--) {
            Optional<InetAddress> hop = AddressRanges.literal(hops.get(i));
            if (hop.isEmpty()) {
                // A hop we cannot read: the proxy that wrote it is the nearest address we can vouch for.
                break;
            }
            client = hop.get();
        }
        return client.getHostAddress();
    }

    private static List<String> forwardedHops(ServerRequest req) {
        List<String> hops = new ArrayList<>();
        if (req.headers().contains(HeaderNames.X_FORWARDED_FOR)) {
            for (String value : req.headers().get(HeaderNames.X_FORWARDED_FOR).allValues()) {
                for (String hop : value.split(",", -1)) {
                    hops.add(hop.trim());
                }
            }
        }
        return hops;
    }
}
