package dev.pulseledger.status.pulse;

import dev.pulseledger.http.RouteTable;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** The caller's view of the provider's public services (CONTRACT §3, GET /api/pulse). */
public final class PulseRoutes {
    private final PulseFeed feed;

    public PulseRoutes(PulseFeed feed) {
        this.feed = feed;
    }

    public void register(RouteTable routes) {
        routes.get("/api/pulse", this::list);
    }

    private void list(ServerRequest req, ServerResponse res) {
        feed.current().representation().send(req, res);
    }
}
