package dev.pulseledger.config;

import java.time.Duration;

/**
 * How much one node takes on at once and how long it waits for a client, so that neither many nor
 * slow clients can hold its connections for ever.
 *
 * @param requestTimeout longest time from a request line to the end of its response
 * @param idleTimeout longest time a connection may sit without a request in progress
 * @param maxConnections open TCP connections; more wait in the listen backlog
 * @param maxConcurrentRequests requests in progress; more get 503 {@code overloaded}
 */
public record ServerLimits(
        Duration requestTimeout, Duration idleTimeout, int maxConnections, int maxConcurrentRequests) {}
