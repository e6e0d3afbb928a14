package dev.pulseledger.http;

import dev.pulseledger.config.ServerLimits;
import dev.pulseledger.http.edge.StrictHttp1;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http1.Http1Config;
import java.time.Duration;

/** Puts a limit on everything the HTTP server reads: sizes, connections, requests and time. */
public final class ServerSettings {
    /** Request line: method, path and query. Longer gets 414. */
    public static final int MAX_REQUEST_LINE_BYTES = 4096;

    /** All request headers together. Larger gets 431. */
    public static final int MAX_HEADER_BYTES = 16 * 1024;

    /** How often Helidon looks for idle connections; at most this much past the idle timeout. */
    private static final Duration MAX_IDLE_CHECK_PERIOD = Duration.ofSeconds(5);

    private ServerSettings() {}

    public static void apply(WebServerConfig.Builder server, ServerLimits limits, RequestDeadlines deadlines) {
        Duration idleCheckPeriod = limits.idleTimeout().dividedBy(2);
        server.maxPayloadSize(Requests.MAX_DRAINED_BODY_BYTES)
                .maxTcpConnections(limits.maxConnections())
                .maxConcurrentRequests(limits.maxConcurrentRequests())
                .idleConnectionTimeout(limits.idleTimeout())
                .idleConnectionPeriod(
                        idleCheckPeriod.compareTo(MAX_IDLE_CHECK_PERIOD) < 0 ? idleCheckPeriod : MAX_IDLE_CHECK_PERIOD)
                // Lets DirectErrors see Helidon's reason (to tell 431 from 400); it never echoes it.
                .errorHandling(errors -> errors.includeEntity(true))
                // Only this HTTP/1.1 configuration: a discovered default would be a second, unlimited one.
                .protocolsDiscoverServices(false)
                .addConnectionSelector(StrictHttp1.create(
                        Http1Config.builder()
                                .maxPrologueLength(MAX_REQUEST_LINE_BYTES)
                                .maxHeadersSize(MAX_HEADER_BYTES),
                        deadlines));
    }
}
