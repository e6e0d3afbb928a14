package dev.pulseledger.events;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * One connected client: replays what it missed, then forwards live changes, with heartbeats while
 * nothing happens. It checks the caller's key every {@link #KEY_CHECK_INTERVAL}, so a revoked key
 * or a suspended account loses its stream as fast as its other requests (CONTRACT §2: 5 s).
 */
final class SseStream {
    static final Duration KEY_CHECK_INTERVAL = Duration.ofSeconds(1);

    private static final byte[] HELLO = "retry: 3000\n: connected\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    private final StatusChangeFeed feed;
    private final StatusChangeFeed.Subscription subscription;
    private final Duration heartbeatInterval;
    private final BooleanSupplier keyStillValid;
    private long lastSent;
    private long lastWriteNanos;

    SseStream(
            OutputStream out,
            StatusChangeFeed feed,
            StatusChangeFeed.Subscription subscription,
            Duration heartbeatInterval,
            BooleanSupplier keyStillValid) {
        this.out = out;
        this.feed = feed;
        this.subscription = subscription;
        this.heartbeatInterval = heartbeatInterval;
        this.keyStillValid = keyStillValid;
    }

    /**
     * Streams until the lifetime ends, the feed closes, the key stops being valid, or the client goes
     * away (an IOException). The subscription was opened before the replay is read, so nothing falls
     * between the two; a change both replayed and queued is sent once, as sequence numbers only grow.
     */
    void run(long resumeAfter, Duration lifetime) throws IOException, InterruptedException {
        long deadlineNanos = System.nanoTime() + lifetime.toNanos();
        write(HELLO);
        lastSent = resumeAfter;
        if (resumeAfter > 0) {
            for (StatusChangeFeed.Frame frame : feed.since(resumeAfter, PulseStreamRoutes.MAX_REPLAYED)) {
                send(frame);
            }
        }
        out.flush();
        Duration wait = heartbeatInterval.compareTo(KEY_CHECK_INTERVAL) < 0 ? heartbeatInterval : KEY_CHECK_INTERVAL;
        while (System.nanoTime() < deadlineNanos) {
            Optional<StatusChangeFeed.Frame> frame = subscription.next(wait);
            if (!keyStillValid.getAsBoolean() || (frame.isEmpty() && subscription.ended())) {
                return;
            }
            if (frame.isPresent()) {
                send(frame.get());
                out.flush();
            } else if (System.nanoTime() - lastWriteNanos >= heartbeatInterval.toNanos()) {
                write(HEARTBEAT);
                out.flush();
            }
        }
    }

    private void send(StatusChangeFeed.Frame frame) throws IOException {
        if (frame.sequence() > lastSent) {
            write(frame.bytes());
            lastSent = frame.sequence();
        }
    }

    private void write(byte[] bytes) throws IOException {
        out.write(bytes);
        lastWriteNanos = System.nanoTime();
    }
}
