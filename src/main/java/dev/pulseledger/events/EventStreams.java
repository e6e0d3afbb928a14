package dev.pulseledger.events;

import dev.pulseledger.http.Access;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.keys.Caller;
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
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machinery every Server-Sent Events endpoint shares: the node's stream permits (a few per key
 * across all streams, and a total), a subscription to the {@link EventFeed}, the replay after
 * {@code Last-Event-ID}, and the blocking loop (handlers run on virtual threads).
 */
public final class EventStreams {
    private static final Logger LOG = LoggerFactory.getLogger(EventStreams.class);

    public static final int MAX_STREAMS_PER_KEY = 3;
    /** Streams end after this long; the client reconnects with Last-Event-ID and loses nothing. */
    public static final Duration MAX_STREAM_LIFETIME = Duration.ofHours(1);
    /** Most events replayed to a resuming client. */
    public static final int MAX_REPLAYED = 1000;

    private final Access access;
    private final EventFeed feed;
    private final Duration heartbeatInterval;
    private final StreamPermits permits;

    /**
     * @param maxStreamsPerNode open streams this node allows in all; each holds one of the server's
     *     concurrent requests, so this must stay well below that limit
     */
    public EventStreams(
            Access access, EventFeed feed, Duration heartbeatInterval, int maxStreamsPerNode, MeterRegistry metrics) {
        this.access = access;
        this.feed = feed;
        this.heartbeatInterval = heartbeatInterval;
        this.permits = new StreamPermits(MAX_STREAMS_PER_KEY, Math.max(1, maxStreamsPerNode));
        Gauge.builder("pulseledger.sse.streams.open", permits, StreamPermits::open)
                .description("Event streams (/api/pulse/stream and /api/tokens/stream) open on this node")
                .register(metrics);
    }

    /**
     * Answers the request with a stream of the events {@code filter} keeps, after those up to
     * {@code position}, and of what {@code tick} adds once a second.
     */
    @SuppressWarnings("try") // the permit is held for the stream's lifetime and released by closing it
    void serve(
            ServerRequest req,
            ServerResponse res,
            Caller caller,
            StreamPosition position,
            EventFeed.Filter filter,
            Supplier<Optional<StreamFrame>> tick) {
        // Read before subscribing: the replay below then covers whatever the feed passed in between.
        position.startAt(feed.position());
        try (StreamPermits.Permit permit = permits.acquire(caller.keyId());
                EventFeed.Subscription subscription = feed.subscribe(filter).orElseThrow(EventStreams::shuttingDown)) {
            res.status(Status.OK_200);
            res.header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
            // Proxies such as nginx would otherwise buffer the stream.
            res.header("X-Accel-Buffering", "no");
            if (req.prologue().method().equals(Method.HEAD)) {
                res.send();
                return;
            }
            List<StreamFrame> replay = feed.since(position.eventSequence(), MAX_REPLAYED, filter);
            try (OutputStream out = res.outputStream()) {
                new SseStream(out, subscription, position, heartbeatInterval, () -> access.stillCaller(req), tick)
                        .run(replay, MAX_STREAM_LIFETIME);
            } catch (IOException | UncheckedIOException e) {
                LOG.debug("An event stream ended: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static ProblemException shuttingDown() {
        return new ProblemException(ProblemCode.SHUTTING_DOWN, "This node is shutting down.")
                .withHeader("Retry-After", "1");
    }
}
