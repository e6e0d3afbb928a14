package dev.pulseledger.events;

import dev.pulseledger.store.Workers;
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
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the outbox on behalf of every event stream on this node: one cheap indexed query per poll
 * however many clients listen, and each event offered to each subscriber once, which keeps what its
 * own filter turns into a frame. Because every node follows the same table, an event raised through
 * any node reaches the streams of all of them.
 */
public final class EventFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EventFeed.class);

    /** Frames a subscriber may have waiting; a client that falls further behind is disconnected. */
    public static final int MAX_QUEUED_PER_SUBSCRIBER = 256;

    /** Turns an event into the frame one stream sends, or empty for an event that stream does not show. */
    @FunctionalInterface
    public interface Filter extends Function<StoredEvent, Optional<StreamFrame>> {}

    private static final Set<EventType> ALL_TYPES = EnumSet.allOf(EventType.class);

    private static final StreamFrame END = new StreamFrame(-1, 0, "", new byte[0]);

    private final Outbox outbox;
    private final Duration pollInterval;
    private final Set<Subscription> subscriptions = ConcurrentHashMap.newKeySet();
    private final Thread poller;
    private volatile boolean running = true;
    private volatile long cursor;

    private EventFeed(Outbox outbox, Duration pollInterval, long cursor) {
        this.outbox = outbox;
        this.pollInterval = pollInterval;
        this.cursor = cursor;
        this.poller = Thread.ofPlatform().name("event-feed").daemon(true).unstarted(this::poll);
    }

    /** A feed that, once started, follows the outbox from its current end. */
    public static EventFeed atEnd(Outbox outbox, Duration pollInterval) {
        return new EventFeed(outbox, pollInterval, outbox.lastSequence());
    }

    public EventFeed start() {
        poller.start();
        return this;
    }

    /** The sequence number of the last event this feed has handed to its subscribers. */
    public long position() {
        return cursor;
    }

    /** Registers a subscriber for every event committed from now on; empty once the feed is closed. */
    public Optional<Subscription> subscribe(Filter filter) {
        Subscription subscription = new Subscription(filter);
        subscriptions.add(subscription);
        if (!running) {
            subscriptions.remove(subscription);
            return Optional.empty();
        }
        return Optional.of(subscription);
    }

    /** Up to {@code limit} frames of events after {@code sequence}, for a client resuming with Last-Event-ID. */
    public List<StreamFrame> since(long sequence, int limit, Filter filter) {
        List<StreamFrame> frames = new ArrayList<>();
        long after = sequence;
        while (frames.size() < limit) {
            List<StoredEvent> events = outbox.after(ALL_TYPES, after, Outbox.MAX_READ);
            for (StoredEvent event : events) {
                if (frames.size() < limit) {
                    filter.apply(event).ifPresent(frames::add);
                }
                after = event.sequence();
            }
            if (events.size() < Outbox.MAX_READ) {
                break;
            }
        }
        return frames;
    }

    private void poll() {
        boolean failing = false;
        while (running) {
            try {
                List<StoredEvent> events = outbox.after(ALL_TYPES, cursor, Outbox.MAX_READ);
                for (StoredEvent event : events) {
                    // The cursor moves first: an event that cannot be framed must not stop the feed.
                    cursor = event.sequence();
                    subscriptions.forEach(subscription -> subscription.offer(event));
                }
                failing = false;
                if (events.size() == Outbox.MAX_READ) {
                    continue;
                }
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warn("Reading events for streams failed; retrying: {}", e.toString());
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

    /** Stops polling and ends every subscription, so open streams finish. */
    @Override
    public void close() {
        running = false;
        poller.interrupt();
        subscriptions.forEach(Subscription::end);
        Workers.awaitEnd(poller, Duration.ofSeconds(5));
    }

    /** One listener's queue of frames. */
    public final class Subscription implements AutoCloseable {
        private final BlockingQueue<StreamFrame> queue = new ArrayBlockingQueue<>(MAX_QUEUED_PER_SUBSCRIBER + 1);
        private final Filter filter;
        private volatile boolean ended;

        private Subscription(Filter filter) {
            this.filter = filter;
        }

        private void offer(StoredEvent event) {
            if (ended) {
                return;
            }
            Optional<StreamFrame> frame;
            try {
                frame = filter.apply(event);
            } catch (RuntimeException e) {
                LOG.warn(
                        "An event could not be framed for a stream and was skipped: {} ({})", event.id(), e.toString());
                return;
            }
            if (frame.isPresent() && (queue.size() >= MAX_QUEUED_PER_SUBSCRIBER || !queue.offer(frame.get()))) {
                // A client this far behind would only fall further; it resumes with Last-Event-ID.
                end();
            }
        }

        private void end() {
            ended = true;
            queue.offer(END);
        }

        /** The next frame, waiting up to {@code wait}; empty on timeout or once ended. */
        public Optional<StreamFrame> next(Duration wait) throws InterruptedException {
            StreamFrame frame = queue.poll(wait.toNanos(), TimeUnit.NANOSECONDS);
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
