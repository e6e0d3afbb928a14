package dev.pulseledger.http;

import com.github.f4b6a3.ulid.UlidFactory;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Gives every exchange a request id, the security headers, and a latency sample by route. The labels
 * come from {@link MetricLabels}, so nothing a client sends can add a time series.
 */
public final class RequestFilter implements Filter {
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
    private static final Pattern SANE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");
    /**
     * Request ids only tell requests apart, they guard nothing: their random part comes from
     * ThreadLocalRandom, not from the shared SecureRandom (a lock and ~2 % of a read's CPU in a profile).
     */
    private static final UlidFactory REQUEST_IDS =
            UlidFactory.newInstance(() -> ThreadLocalRandom.current().nextLong());

    private final MeterRegistry registry;
    private final Map<TimerKey, Timer> timers = new ConcurrentHashMap<>();
    private final Counter paymentRequired;
    private final Counter tooManyRequests;

    public RequestFilter(MeterRegistry registry) {
        this.registry = registry;
        this.paymentRequired = Counter.builder("pulseledger.http.payment.required")
                .description("Responses 402: a spend larger than the balance")
                .register(registry);
        this.tooManyRequests = Counter.builder("pulseledger.http.too.many.requests")
                .description("Responses 429: a key over its plan's rate limit, or over its open streams")
                .register(registry);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long startNanos = System.nanoTime();
        res.header(REQUEST_ID, requestId(req.headers().first(REQUEST_ID)));
        res.header(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
        String path = req.path().path();
        if (path.startsWith("/api/") || path.startsWith("/admin/")) {
            // The safe default for keyed data and for every error; a handler that serves a cacheable
            // representation (the pulse feed, see Representation) replaces it on its 200 and 304.
            res.header(HeaderNames.CACHE_CONTROL, "no-store");
        }
        try {
            chain.proceed();
        } finally {
            record(req, res, startNanos);
        }
    }

    /** The caller's request id if it is sane, else a new one. */
    static String requestId(Optional<String> presented) {
        return presented
                .filter(id -> SANE_REQUEST_ID.matcher(id).matches())
                .orElseGet(() -> REQUEST_IDS.create().toLowerCase());
    }

    private void record(RoutingRequest req, RoutingResponse res, long startNanos) {
        TimerKey key = new TimerKey(
                MetricLabels.method(req.prologue().method().text()),
                MetricLabels.route(req.matchingPattern()),
                MetricLabels.status(res.status().code()));
        timers.computeIfAbsent(key, this::timer).record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
        switch (res.status().code()) {
            case 402 -> paymentRequired.increment();
            case 429 -> tooManyRequests.increment();
            default -> {}
        }
    }

    private Timer timer(TimerKey key) {
        return Timer.builder("http.server.requests")
                .description("HTTP requests by route and status")
                .tag("method", key.method())
                .tag("route", key.route())
                .tag("status", key.status())
                .serviceLevelObjectives(
                        Duration.ofMillis(1),
                        Duration.ofMillis(5),
                        Duration.ofMillis(10),
                        Duration.ofMillis(25),
                        Duration.ofMillis(50),
                        Duration.ofMillis(100),
                        Duration.ofMillis(250),
                        Duration.ofMillis(1000))
                .register(registry);
    }

    /** The tags of one timer; looking the timer up by them is far cheaper than building its id per request. */
    private record TimerKey(String method, String route, String status) {}
}
