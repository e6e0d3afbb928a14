package dev.pulseledger.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.OptionalLong;

/**
 * Answers a flood of made-up keys before any other work: a keyed request from a client address past
 * its failed authentications, with a key this node does not know, gets the ready-made 429 at once.
 */
public final class FailedAuthGate implements Filter {
    private final Access access;

    public FailedAuthGate(Access access) {
        this.access = access;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (path.startsWith("/api/") || path.startsWith("/admin/")) {
            OptionalLong retryAfterSeconds = access.floodRefusal(req);
            if (retryAfterSeconds.isPresent()) {
                FailedAuthRefusal.send(res, retryAfterSeconds.getAsLong());
                return;
            }
        }
        chain.proceed();
    }
}
