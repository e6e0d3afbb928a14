package dev.pulseledger.ratelimit;

import dev.pulseledger.http.Access;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Optional;

/**
 * Applies each caller key's plan limit to {@code /api/} requests before they reach a handler, and
 * reports the allowance in {@code RateLimit-*} headers on every such response.
 */
public final class RateLimitFilter implements Filter {
    public static final HeaderName LIMIT = HeaderNames.create("RateLimit-Limit");
    public static final HeaderName REMAINING = HeaderNames.create("RateLimit-Remaining");
    public static final HeaderName RESET = HeaderNames.create("RateLimit-Reset");

    private final Access access;
    private final PlanRateLimits limits;
    private final RateLimiter limiter;

    public RateLimitFilter(Access access, PlanRateLimits limits, RateLimiter limiter) {
        this.access = access;
        this.limits = limits;
        this.limiter = limiter;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        Optional<Caller> caller = req.path().path().startsWith("/api/") ? access.callerIfAny(req) : Optional.empty();
        Optional<Long> limit = caller.flatMap(c -> limits.perMinute(c.planId()));
        if (limit.isPresent()) {
            RateLimiter.Decision decision = limiter.acquire(caller.get().keyId(), limit.get());
            res.header(LIMIT, Long.toString(decision.limit()));
            res.header(REMAINING, Long.toString(decision.remaining()));
            res.header(RESET, Long.toString(decision.resetSeconds()));
            if (!decision.allowed()) {
                throw rateLimited(decision);
            }
        }
        chain.proceed();
    }

    private static ProblemException rateLimited(RateLimiter.Decision decision) {
        return new ProblemException(
                        ProblemCode.RATE_LIMITED,
                        "This key may make " + decision.limit() + " requests per minute; retry in "
                                + decision.retryAfterSeconds() + " s.")
                .withHeader("Retry-After", Long.toString(decision.retryAfterSeconds()));
    }
}
