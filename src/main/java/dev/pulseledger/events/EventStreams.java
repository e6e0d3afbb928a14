package dev.pulseledger.events;

import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
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

    private final Authenticator authenticator;
    private final EventFeed feed;
    private final Duration heartbeatInterval;
    private final StreamPermits permits;

    /**
     * @param maxStreamsPerNode open streams this node allows in all; each holds one of the server's
     *     concurrent requests, so this must stay well below that limit
     */
    public EventStreams(
            Authenticator authenticator, EventFeed feed, Duration heartbeatInterval, int maxStreamsPerNode) {
        this.authenticator = authenticator;
        this.feed = feed;
        this.heartbeatInterval = heartbeatInterval;
        this.permits = new StreamPermits(MAX_STREAMS_PER_KEY, Math.max(1, maxStreamsPerNode));
    }

    /**
     * Answers the request with a stream of the events {@code filter} keeps, after those up to
     * {@code position}, and of what {@code tick} adds once a second.
     */
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
            if (req.prologue().method() == Method.HEAD) {
                res.send();
                return;
            }
            List<StreamFrame> replay = feed.since(position.eventSequence(), MAX_REPLAYED, filter);
            try (OutputStream out = res.outputStream()) {
                new SseStream(out, subscription, position, heartbeatInterval, () -> stillValid(req), tick)
                        .run(replay, MAX_STREAM_LIFETIME);
            } catch (IOException | UncheckedIOException e) {
                LOG.debug("An event stream ended: {}", e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True while the request's key may still call: not revoked, expired or suspended since. */
    private boolean stillValid(ServerRequest req) {
        try {
            authenticator.caller(Requests.apiKey(req));
            return true;
        } catch (ProblemException e) {
            return false;
        }
    }

    private static ProblemException shuttingDown() {
        return new ProblemException(503, "shutting_down", "Service Unavailable", "This node is shutting down.")
                .withHeader("Retry-After", "1");
    }
}
