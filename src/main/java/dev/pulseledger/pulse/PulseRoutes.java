package dev.pulseledger.pulse;

import dev.pulseledger.http.Access;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** The caller's view of the provider's public services (CONTRACT §3, GET /api/pulse). */
public final class PulseRoutes {
    /**
     * Private: the feed is for key holders only, so no shared cache may keep it. No-cache: a client
     * may keep it but asks each time (a cheap 304 while it is unchanged), so it never shows a status
     * older than the feed's own bound, and a revoked key stops working at once.
     */
    static final String FEED_CACHE_CONTROL = "private, no-cache";

    private final Access access;
    private final PulseFeed feed;

    public PulseRoutes(Access access, PulseFeed feed) {
        this.access = access;
        this.feed = feed;
    }

    public void register(RouteTable routes) {
        routes.get("/api/pulse", this::list);
    }

    private void list(ServerRequest req, ServerResponse res) {
        access.caller(req);
        PulseFeed.Snapshot snapshot = feed.current();
        new Representation(Responses.JSON, snapshot.json(), snapshot.etag(), FEED_CACHE_CONTROL, snapshot.gzippedJson())
                .send(req, res);
    }
}
