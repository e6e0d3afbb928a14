package dev.pulseledger.http;

import dev.pulseledger.config.AddressRanges;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.Locale;

/**
 * Whether a request reached the service over HTTPS: on this node's own TLS port, or through a
 * trusted proxy that ended TLS and says so with {@code X-Forwarded-Proto: https}. From any other peer
 * the header is ignored, since a client can write whatever it likes there.
 */
public final class HttpsRequests {
    private final AddressRanges trustedProxies;

    public HttpsRequests(AddressRanges trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    public boolean isHttps(ServerRequest req) {
        if (req.isSecure()) {
            return true;
        }
        SocketAddress peer = req.remotePeer().address();
        if (!(peer instanceof InetSocketAddress socket)
                || socket.getAddress() == null
                || !trustedProxies.contains(socket.getAddress())
                || !req.headers().contains(HeaderNames.X_FORWARDED_PROTO)) {
            return false;
        }
        // The proxy next to this node appends last, so its word is the last value.
        List<String> values = req.headers().get(HeaderNames.X_FORWARDED_PROTO).allValues();
        String last = values.getLast();
        String proto = last.substring(last.lastIndexOf(',') + 1).strip();
        return proto.toLowerCase(Locale.ROOT).equals("https");
    }
}
