package dev.pulseledger.pulse;

import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** The caller's view of the provider's public services (CONTRACT §3, GET /api/pulse). */
public final class PulseRoutes {
    private final Authenticator authenticator;
    private final PulseFeed feed;

    public PulseRoutes(Authenticator authenticator, PulseFeed feed) {
        this.authenticator = authenticator;
        this.feed = feed;
    }

    public void register(RouteTable routes) {
        routes.get("/api/pulse", this::list);
    }

    private void list(ServerRequest req, ServerResponse res) {
        authenticator.caller(Requests.apiKey(req));
        PulseFeed.Snapshot snapshot = feed.current();
        res.header("ETag", snapshot.etag());
        Responses.send(res, 200, Responses.JSON, snapshot.json());
    }
}
