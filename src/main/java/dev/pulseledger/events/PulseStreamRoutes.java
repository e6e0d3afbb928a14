package dev.pulseledger.events;

import dev.pulseledger.http.Access;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/pulse/stream}: public service status changes as Server-Sent Events, with
 * heartbeats and resumption by {@code Last-Event-ID}. Handlers run on virtual threads, so each open
 * stream is a plain blocking loop.
 */
public final class PulseStreamRoutes {
    private static final Logger LOG = LoggerFactory.getLogger(PulseStreamRoutes.class);

    public static final String PATH = "/api/pulse/stream";
    public static final int MAX_STREAMS_PER_KEY = 3;
    /** Streams end after this long; the client reconnects with Last-Event-ID and loses nothing. */
    public static final Duration MAX_STREAM_LIFETIME = Duration.ofHours(1);
    /** Most changes replayed to a resuming client. */
    public static final int MAX_REPLAYED = 1000;

    private static final int MAX_LAST_EVENT_ID_LENGTH = 19;
    private static final HeaderName LAST_EVENT_ID = HeaderNames.create("Last-Event-ID");

    private final Access access;
    private final StatusChangeFeed feed;
    private final Duration heartbeatInterval;
    private final StreamPermits permits;

    /**
     * @param maxStreamsPerNode open streams this node allows in all; each holds one of the server's
     *     concurrent requests, so this must stay well below that limit
     */
    public PulseStreamRoutes(
            Access access,
            StatusChangeFeed feed,
            Duration heartbeatInterval,
            int maxStreamsPerNode,
            MeterRegistry metrics) {
        this.access = access;
        this.feed = feed;
        this.heartbeatInterval = heartbeatInterval;
        this.permits = new StreamPermits(MAX_STREAMS_PER_KEY, Math.max(1, maxStreamsPerNode));
        Gauge.builder("pulseledger.sse.streams.open", permits, StreamPermits::open)
                .description("Event streams (/api/pulse/stream) open on this node")
                .register(metrics);
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::stream);
    }

    @SuppressWarnings("try") // the permit is held for the stream's lifetime and released by closing it
    private void stream(ServerRequest req, ServerResponse res) {
        Caller caller = access.caller(req);
        long resumeAfter = lastEventId(req);
        try (StreamPermits.Permit permit = permits.acquire(caller.keyId());
                StatusChangeFeed.Subscription subscription =
                        feed.subscribe().orElseThrow(PulseStreamRoutes::shuttingDown)) {
            res.status(Status.OK_200);
            res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            // Proxies such as nginx would otherwise buffer the stream.
            res.header("X-Accel-Buffering", "no");
            if (req.prologue().method().equals(Method.HEAD)) {
                res.send();
                return;
            }
            try (OutputStream out = res.outputStream()) {
                new SseStream(out, feed, subscription, heartbeatInterval, () -> access.stillCaller(req))
                        .run(resumeAfter, MAX_STREAM_LIFETIME);
            } catch (IOException | UncheckedIOException e) {
                LOG.debug("An event stream ended: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The sequence number to resume after: the Last-Event-ID header, 0 when there is none. */
    private static long lastEventId(ServerRequest req) {
        Optional<String> header = Requests.header(req, LAST_EVENT_ID);
        if (header.isEmpty() || header.get().isBlank()) {
            return 0;
        }
        String text = header.get().trim();
        if (text.length() <= MAX_LAST_EVENT_ID_LENGTH && text.chars().allMatch(Character::isDigit)) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // answered below
            }
        }
        throw ProblemException.badRequest(
                "invalid_last_event_id", "Header 'Last-Event-ID' must be the id of an event this stream sent.");
    }

    private static ProblemException shuttingDown() {
        return new ProblemException(503, "shutting_down", "Service Unavailable", "This node is shutting down.")
                .withHeader("Retry-After", "1");
    }
}
