package dev.pulseledger.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.OptionalLong;

/**
 * Answers a flood of made-up keys before any other work: a keyed request from a client address past
 * its failed authentications, with a key this node does not know, gets the ready-made 429, after
 * the {@link RefusalHold}.
 */
public final class FailedAuthGate implements Filter {
    private final Access access;
    private final RefusalHold hold;

    public FailedAuthGate(Access access, RefusalHold hold) {
        this.access = access;
        this.hold = hold;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (path.startsWith("/api/") || path.startsWith("/admin/")) {
            OptionalLong retryAfterSeconds = access.floodRefusal(req);
            if (retryAfterSeconds.isPresent()) {
                hold.hold();
                FailedAuthRefusal.send(res, retryAfterSeconds.getAsLong());
                return;
            }
        }
        chain.proceed();
    }
}
