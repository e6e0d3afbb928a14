package dev.pulseledger.events;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Json;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the outbox for public service status changes and incidents on behalf of every stream on this node: one
 * cheap indexed query per poll however many clients listen, and each change handed to each
 * subscriber once. Because every node follows the same table, a change made through any node
 * reaches the streams of all of them.
 */
public final class StatusChangeFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StatusChangeFeed.class);
    /** What the pulse stream carries: status changes and incidents, for callers to see. */
    private static final Set<EventType> TYPES =
            EnumSet.of(EventType.SERVICE_STATUS_CHANGED, EventType.INCIDENT_CREATED, EventType.INCIDENT_UPDATED);

    /** Changes a subscriber may have waiting; a client that falls further behind is disconnected. */
    public static final int MAX_QUEUED_PER_SUBSCRIBER = 256;

    /** One change, ready to write as a Server-Sent Event. */
    @SuppressWarnings("ArrayRecordComponent") // written as is, never compared or changed
    public record Frame(long sequence, byte[] bytes) {}

    private static final Frame END = new Frame(-1, new byte[0]);

    private final Outbox outbox;
    private final Duration pollInterval;
    private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
    private final Thread poller;
    private volatile boolean running = true;
    private long cursor;

    private StatusChangeFeed(Outbox outbox, Duration pollInterval, long cursor) {
        this.outbox = outbox;
        this.pollInterval = pollInterval;
        this.cursor = cursor;
        this.poller =
                Thread.ofPlatform().name("status-change-feed").daemon(true).unstarted(this::poll);
    }

    /** Starts following the outbox from its current end. */
    public static StatusChangeFeed start(Outbox outbox, Duration pollInterval) {
        StatusChangeFeed feed = new StatusChangeFeed(outbox, pollInterval, outbox.lastSequence());
        feed.poller.start();
        return feed;
    }

    /** Registers a subscriber for every change committed from now on; empty once the feed is closed. */
    public Optional<Subscription> subscribe() {
        Subscription subscription = new Subscription();
        subscriptions.add(subscription);
        if (!running) {
            subscriptions.remove(subscription);
            return Optional.empty();
        }
        return Optional.of(subscription);
    }

    /** Up to {@code limit} changes after {@code sequence}, for a client resuming with Last-Event-ID. */
    public List<Frame> since(long sequence, int limit) {
        List<Frame> frames = new ArrayList<>();
        long after = sequence;
        while (frames.size() < limit) {
            List<StoredEvent> events = outbox.after(TYPES, after, limit - frames.size());
            for (StoredEvent event : events) {
                frame(event).ifPresent(frames::add);
                after = event.sequence();
            }
            if (events.isEmpty()) {
                break;
            }
        }
        return frames;
    }

    private void poll() {
        boolean failing = false;
        while (running) {
            try {
                List<StoredEvent> events = outbox.after(TYPES, cursor, Outbox.MAX_READ);
                for (StoredEvent event : events) {
                    // The cursor moves first: an event that cannot be framed must not stop the feed.
                    cursor = event.sequence();
                    frame(event).ifPresent(this::publish);
                }
                failing = false;
                if (events.size() == Outbox.MAX_READ) {
                    continue;
                }
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warn("Reading service status changes failed; retrying: {}", e.toString());
                }
                failing = true;
            }
            try {
                Thread.sleep(pollInterval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void publish(Frame frame) {
        for (Subscription subscription : subscriptions) {
            subscription.offer(frame);
        }
    }

    /** The SSE frame of a change, or empty for a service callers do not see. */
    static Optional<Frame> frame(StoredEvent event) {
        JsonNode envelope;
        try {
            envelope = Json.mapper().readTree(event.payload());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("The outbox holds an event that is not JSON: " + event.id(), e);
        }
        ObjectNode data = (ObjectNode) envelope.get("data");
        if (!data.path(NewEvent.PUBLIC).asBoolean(false)) {
            return Optional.empty();
        }
        data.remove(NewEvent.PUBLIC);
        String text = "id: " + event.sequence() + "\nevent: " + event.type().wire() + "\ndata: "
                + new String(Json.bytes(envelope), StandardCharsets.UTF_8) + "\n\n";
        return Optional.of(new Frame(event.sequence(), text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Stops polling and ends every subscription, so open streams finish. */
    @Override
    public void close() {
        running = false;
        poller.interrupt();
        subscriptions.forEach(Subscription::end);
        try {
            poller.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One listener's queue of changes. */
    public final class Subscription implements AutoCloseable {
        private final BlockingQueue<Frame> queue = new ArrayBlockingQueue<>(MAX_QUEUED_PER_SUBSCRIBER + 1);
        private volatile boolean ended;

        private Subscription() {}

        private void offer(Frame frame) {
            if (ended) {
                return;
            }
            if (queue.size() >= MAX_QUEUED_PER_SUBSCRIBER || !queue.offer(frame)) {
                // A client this far behind would only fall further; it resumes with Last-Event-ID.
                end();
            }
        }

        private void end() {
            ended = true;
            queue.offer(END);
        }

        /** The next change, waiting up to {@code wait}; empty on timeout or once ended. */
        public Optional<Frame> next(Duration wait) throws InterruptedException {
            Frame frame = queue.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
            // END is the one marker instance, so identity is the test.
            @SuppressWarnings("ReferenceEquality")
            boolean ended = frame == null || frame == END;
            return ended ? Optional.empty() : Optional.of(frame);
        }

        /** True once the feed closed or this subscriber fell too far behind. */
        public boolean ended() {
            return ended && queue.isEmpty();
        }

        @Override
        public void close() {
            subscriptions.remove(this);
        }
    }
}
