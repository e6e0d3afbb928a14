package dev.pulseledger.http.edge;

import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Closes the connection after a response sent before its request's body was read to the end (a
 * refusal before the body, such as 401 or 415): the rest of that body is never read, let alone
 * taken for the next request.
 */
public final class UnreadBodyCloses implements Filter {
    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        res.beforeSend(() -> {
            if (req.content().hasEntity() && !req.content().consumed()) {
                res.header(HeaderValues.CONNECTION_CLOSE);
            }
        });
        chain.proceed();
    }
}
