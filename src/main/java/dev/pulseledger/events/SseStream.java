package dev.pulseledger.events;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * One connected client: replays what it missed, then forwards live frames, with heartbeats while
 * nothing happens. Once a second it asks its {@code tick} for a frame of its own (an account stream's
 * latest balance) and checks the caller's key, so a revoked key or a suspended account loses its
 * stream as fast as its other requests (CONTRACT §2: 5 s).
 */
final class SseStream {
    static final Duration TICK_INTERVAL = Duration.ofSeconds(1);

    private static final byte[] HELLO = "retry: 3000\n: connected\n\n".getBytes(StandardCharsets.UTF_8);
    private static final byte[] HEARTBEAT = ": heartbeat\n\n".getBytes(StandardCharsets.UTF_8);

    private final OutputStream out;
    private final EventFeed.Subscription subscription;
    private final StreamPosition position;
    private final Duration heartbeatInterval;
    private final BooleanSupplier keyStillValid;
    private final Supplier<Optional<StreamFrame>> tick;
    private long lastWriteNanos;

    SseStream(
            OutputStream out,
            EventFeed.Subscription subscription,
            StreamPosition position,
            Duration heartbeatInterval,
            BooleanSupplier keyStillValid,
            Supplier<Optional<StreamFrame>> tick) {
        this.out = out;
        this.subscription = subscription;
        this.position = position;
        this.heartbeatInterval = heartbeatInterval;
        this.keyStillValid = keyStillValid;
        this.tick = tick;
    }

    /**
     * Streams until the lifetime ends, the feed closes, the key stops being valid, or the client goes
     * away (an IOException). The subscription was opened before the replay was read, so nothing falls
     * between the two; a frame both replayed and queued is sent once, as positions only grow.
     */
    void run(List<StreamFrame> replay, Duration lifetime) throws IOException, InterruptedException {
        long deadlineNanos = System.nanoTime() + lifetime.toNanos();
        write(HELLO);
        for (StreamFrame frame : replay) {
            send(frame);
        }
        Optional<StreamFrame> first = tick.get();
        if (first.isPresent()) {
            send(first.get());
        }
        out.flush();
        long lastTickNanos = System.nanoTime();
        Duration wait = heartbeatInterval.compareTo(TICK_INTERVAL) < 0 ? heartbeatInterval : TICK_INTERVAL;
        while (System.nanoTime() < deadlineNanos) {
            Optional<StreamFrame> frame = subscription.next(wait);
            if (!keyStillValid.getAsBoolean() || (frame.isEmpty() && subscription.ended())) {
                return;
            }
            boolean wrote = false;
            if (frame.isPresent()) {
                wrote = send(frame.get());
            }
            if (System.nanoTime() - lastTickNanos >= TICK_INTERVAL.toNanos()) {
                lastTickNanos = System.nanoTime();
                Optional<StreamFrame> own = tick.get();
                if (own.isPresent()) {
                    wrote |= send(own.get());
                }
            }
            if (!wrote && System.nanoTime() - lastWriteNanos >= heartbeatInterval.toNanos()) {
                write(HEARTBEAT);
                wrote = true;
            }
            if (wrote) {
                out.flush();
            }
        }
    }

    private boolean send(StreamFrame frame) throws IOException {
        if (!position.advance(frame)) {
            return false;
        }
        write(frame.render(position.id()));
        return true;
    }

    private void write(byte[] bytes) throws IOException {
        out.write(bytes);
        lastWriteNanos = System.nanoTime();
    }
}
