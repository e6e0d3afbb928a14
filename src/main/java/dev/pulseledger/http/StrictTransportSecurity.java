package dev.pulseledger.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.time.Duration;

/** Sends {@code Strict-Transport-Security} on every response of a node that serves HTTPS. */
public final class StrictTransportSecurity implements Filter {
    private final Header header;

    public StrictTransportSecurity(Duration maxAge) {
        this.header = HeaderValues.create(HeaderNames.STRICT_TRANSPORT_SECURITY, "max-age=" + maxAge.toSeconds());
    }

    /** The header itself, for responses sent before routing (DirectErrors). */
    public Header header() {
        return header;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        res.header(header);
        chain.proceed();
    }
}
