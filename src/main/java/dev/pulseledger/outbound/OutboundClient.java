package dev.pulseledger.outbound;

import java.net.http.HttpClient;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP/1.1 client of an outbound sender (webhook deliveries, upstream status pages), built on its first
 * request rather than at start-up. A JDK client loads the TLS stack and the trust store (about a thousand
 * classes, 2 MB of certificates kept on the heap) and starts a selector thread as it is built, which a node
 * without webhooks or upstreams never needs (docs/PERFORMANCE.md, session 21). Redirects are never followed
 * by the client: a receiver must not be able to point a request at another address.
 */
public final class OutboundClient {
    private final Duration connectTimeout;
    private @Nullable HttpClient client; // guarded by this
    private boolean closed; // guarded by this

    public OutboundClient(Duration connectTimeout) {
        this.connectTimeout = connectTimeout;
    }

    /** The client, built now if this is the first request; after {@link #close} one that refuses requests. */
    public synchronized HttpClient get() {
        HttpClient built = client;
        if (built == null) {
            built = HttpClient.newBuilder()
                    .connectTimeout(connectTimeout)
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .version(HttpClient.Version.HTTP_1_1)
                    .build();
            if (closed) {
                built.shutdownNow();
            }
            client = built;
        }
        return built;
    }

    /** Waits for the requests in flight, then ends the client (if one was built). */
    public void close() {
        HttpClient built = markClosed();
        if (built != null) {
            built.close();
        }
    }

    /**
     * Cuts off the requests in flight and ends the client's selector thread (if one was built), waiting at most
     * {@code wait} for it.
     */
    public void shutdownNow(Duration wait) throws InterruptedException {
        HttpClient built = markClosed();
        if (built != null) {
            built.shutdownNow();
            built.awaitTermination(wait);
        }
    }

    private synchronized @Nullable HttpClient markClosed() {
        closed = true;
        return client;
    }
}
