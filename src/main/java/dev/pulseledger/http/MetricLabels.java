package dev.pulseledger.http;

import java.util.Optional;
import java.util.Set;

/**
 * Label values of the request metrics, each from a small fixed set: a client's made-up method, an
 * unknown path or an odd status cannot add a time series (OpenTelemetry's HTTP conventions do the same).
 */
public final class MetricLabels {
    /** The label of every method outside the standard ones. */
    public static final String OTHER_METHOD = "_OTHER";
    /** The label of every path no route serves. */
    public static final String UNMATCHED_ROUTE = "unmatched";

    private static final Set<String> KNOWN_METHODS =
            Set.of("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT");

    private MetricLabels() {}

    public static String method(String method) {
        return KNOWN_METHODS.contains(method) ? method : OTHER_METHOD;
    }

    /**
     * The route's template as registered; the catch-all that answers 404 and 405 registers none (or a
     * wildcard), so every path it answers shares one label.
     */
    public static String route(Optional<String> matchingPattern) {
        return matchingPattern
                .filter(pattern -> pattern.startsWith("/") && !pattern.contains("*"))
                .orElse(UNMATCHED_ROUTE);
    }

    /** Statuses are three digits by the time a response is sent; anything else is one value. */
    public static String status(int status) {
        return status >= 100 && status <= 599 ? Integer.toString(status) : "other";
    }
}
