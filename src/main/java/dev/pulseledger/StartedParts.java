package dev.pulseledger;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a node in the order they were started, so that they close in reverse order: on a
 * normal stop, and when a later step fails during start-up. Each part's own close is bounded (joins
 * and pool shutdowns wait a fixed time at most), so closing all of them is bounded too.
 */
final class StartedParts implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StartedParts.class);

    private record Part(String name, Runnable close) {}

    private final Deque<Part> started = new ArrayDeque<>();
    private final Consumer<String> afterEachStep;

    /** @param afterEachStep told the name of each part once it has started (tests fail start-up there) */
    StartedParts(Consumer<String> afterEachStep) {
        this.afterEachStep = afterEachStep;
    }

    /** Records a part that has just started and closes itself. */
    <T extends AutoCloseable> T add(String name, T part) {
        return add(name, part, () -> {
            try {
                part.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Records a part that has just started, with the way it stops. */
    <T> T add(String name, T part, Runnable close) {
        started.push(new Part(name, close));
        afterEachStep.accept(name);
        return part;
    }

    /** Closes every started part, the last one first; one failing to close does not keep the rest open. */
    @Override
    public void close() {
        while (!started.isEmpty()) {
            Part part = started.pop();
            try {
                part.close().run();
            } catch (RuntimeException e) {
                LOG.warn("Closing {} failed; closing the rest", part.name(), e);
            }
        }
    }
}
