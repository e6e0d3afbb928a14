package dev.pulseledger.http;

import dev.pulseledger.config.CorsOrigins;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Optional;

/**
 * CORS for {@code /api/}, when origins are configured: answers a browser's preflight itself (no key
 * needed, nothing counted against a rate limit) and lets the allowed origins read responses and the
 * headers callers need. Operator paths are never opened to other origins.
 */
public final class CorsFilter implements Filter {
    private static final HeaderName ALLOW_ORIGIN = HeaderNames.create("Access-Control-Allow-Origin");
    private static final HeaderName ALLOW_METHODS = HeaderNames.create("Access-Control-Allow-Methods");
    private static final HeaderName ALLOW_HEADERS = HeaderNames.create("Access-Control-Allow-Headers");
    private static final HeaderName EXPOSE_HEADERS = HeaderNames.create("Access-Control-Expose-Headers");
    private static final HeaderName MAX_AGE = HeaderNames.create("Access-Control-Max-Age");
    private static final HeaderName REQUEST_METHOD = HeaderNames.create("Access-Control-Request-Method");
    private static final String METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE";
    private static final String REQUEST_HEADERS =
            "X-ApiKey, Content-Type, Idempotency-Key, If-None-Match, Last-Event-ID, X-Request-Id";
    private static final String EXPOSED = "Location, ETag, Retry-After, RateLimit-Limit, RateLimit-Remaining,"
            + " RateLimit-Reset, Idempotent-Replayed, X-Request-Id, Link";
    private static final String PREFLIGHT_CACHE_SECONDS = "600";

    private final CorsOrigins origins;

    public CorsFilter(CorsOrigins origins) {
        this.origins = origins;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        Optional<String> origin = req.headers().first(HeaderNames.ORIGIN);
        if (origin.isEmpty() || !req.path().path().startsWith("/api/")) {
            chain.proceed();
            return;
        }
        res.header(HeaderNames.VARY, "Origin");
        if (!origins.allows(origin.get())) {
            chain.proceed();
            return;
        }
        res.header(ALLOW_ORIGIN, origin.get());
        if (req.prologue().method() == Method.OPTIONS && req.headers().contains(REQUEST_METHOD)) {
            res.header(ALLOW_METHODS, METHODS);
            res.header(ALLOW_HEADERS, REQUEST_HEADERS);
            res.header(MAX_AGE, PREFLIGHT_CACHE_SECONDS);
            res.status(204).send();
            return;
        }
        res.header(EXPOSE_HEADERS, EXPOSED);
        chain.proceed();
    }
}
