package dev.pulseledger.events;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** One connected client: replays what it missed, then forwards live changes, with heartbeats between. */
final class SseStream {
    private static final byte[] HELLO = "retry: 3000\n: connected\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    private final StatusChangeFeed feed;
    private final StatusChangeFeed.Subscription subscription;
    private final Duration heartbeatInterval;
    private long lastSent;

    SseStream(
            OutputStream out,
            StatusChangeFeed feed,
            StatusChangeFeed.Subscription subscription,
            Duration heartbeatInterval) {
        this.out = out;
        this.feed = feed;
        this.subscription = subscription;
        this.heartbeatInterval = heartbeatInterval;
    }

    /**
     * Streams until the lifetime ends, the feed closes or the client goes away (an IOException).
     * The subscription was opened before the replay is read, so nothing falls between the two; a
     * change both replayed and queued is sent once, as sequence numbers only grow.
     */
    void run(long resumeAfter, Duration lifetime) throws IOException, InterruptedException {
        long deadlineNanos = System.nanoTime() + lifetime.toNanos();
        out.write(HELLO);
        lastSent = resumeAfter;
        if (resumeAfter > 0) {
            for (StatusChangeFeed.Frame frame : feed.since(resumeAfter, PulseStreamRoutes.MAX_REPLAYED)) {
                send(frame);
            }
        }
        out.flush();
        while (System.nanoTime() < deadlineNanos) {
            Optional<StatusChangeFeed.Frame> frame = subscription.next(heartbeatInterval);
            if (frame.isPresent()) {
                send(frame.get());
            } else if (subscription.ended()) {
                return;
            } else {
                out.write(HEARTBEAT);
            }
            out.flush();
        }
    }

    private void send(StatusChangeFeed.Frame frame) throws IOException {
        if (frame.sequence() > lastSent) {
            out.write(frame.bytes());
            lastSent = frame.sequence();
        }
    }
}
