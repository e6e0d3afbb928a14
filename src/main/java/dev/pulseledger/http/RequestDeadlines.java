package dev.pulseledger.http;

import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Closes any connection whose request is still unfinished a request timeout after its request line,
 * so that a client sending its headers or body a byte at a time cannot hold a connection for ever.
 * Helidon's socket reads have no timeout of their own, and its idle timeout only covers connections
 * that are between requests or still sending the request line.
 *
 * <p>A request to a streaming path (an event stream, which bounds its own lifetime) keeps its
 * deadline only until its headers are read: from then on it is a long response, not a slow request.
 */
public final class RequestDeadlines implements Http1ConnectionListener, AutoCloseable {
    private static final Duration SWEEP_PERIOD = Duration.ofMillis(500);

    private final long timeoutNanos;
    private final Set<String> streamingPaths;
    private final Map<ConnectionContext, Long> deadlines = new ConcurrentHashMap<>();
    private final Map<ConnectionContext, Boolean> streaming = new ConcurrentHashMap<>();
    private final ScheduledExecutorService sweeper;

    public RequestDeadlines(Duration timeout, Set<String> streamingPaths) {
        this.timeoutNanos = timeout.toNanos();
        this.streamingPaths = Set.copyOf(streamingPaths);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("request-deadlines").daemon(true).factory());
    }

    /** Starts ending requests that outlive their deadline. */
    public RequestDeadlines start() {
        ScheduledFuture<?> unused = sweeper.scheduleWithFixedDelay(
                this::sweep, SWEEP_PERIOD.toMillis(), SWEEP_PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        return this;
    }

    /** Called by Helidon as each request line is read: the request's clock starts here. */
    @Override
    public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
        deadlines.put(ctx, System.nanoTime() + timeoutNanos);
        streaming.put(ctx, streamingPaths.contains(prologue.uriPath().path()));
    }

    /** Called by Helidon once a request's headers are read. */
    @Override
    public void headers(ConnectionContext ctx, Headers headers) {
        if (Boolean.TRUE.equals(streaming.remove(ctx))) {
            deadlines.remove(ctx);
        }
    }

    private void sweep() {
        long now = System.nanoTime();
        deadlines.forEach((ctx, deadline) -> {
            if (!ctx.serverSocket().isConnected()) {
                deadlines.remove(ctx, deadline);
                streaming.remove(ctx);
            } else if (now - deadline > 0 && deadlines.remove(ctx, deadline)) {
                // Closing the socket ends the blocked read or write; Helidon then drops the connection.
                ctx.serverSocket().close();
            }
        });
    }

    @Override
    public void close() {
        sweeper.shutdownNow();
        try {
            sweeper.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
