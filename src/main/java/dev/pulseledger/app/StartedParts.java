package dev.pulseledger.app;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts of a node: first built (a part that holds anything, such as a pool or a client, is
 * recorded with its close as soon as it exists), then started in the order they were planned. They
 * close in reverse order: on a normal stop, and when a later step fails, whether while building or
 * while starting. Each part's own close is bounded (joins and pool shutdowns wait a fixed time at
 * most), and closing a part that was built but never started is safe, so closing all of them is bounded.
 */
public final class StartedParts implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(StartedParts.class);
    /** The step heard once every part is built and before the first one starts. */
    public static final String BUILT = "all parts built";

    private record Part(String name, Runnable close) {}

    private record Start(String name, Runnable start) {}

    private final Deque<Part> open = new ArrayDeque<>();
    private final List<Start> starts = new ArrayList<>();
    private final Consumer<String> afterEachStep;

    /** @param afterEachStep told the name of each step once it has run (tests fail start-up there) */
    public StartedParts(Consumer<String> afterEachStep) {
        this.afterEachStep = afterEachStep;
    }

    /** Records a part that has just been built or opened and closes itself. */
    public <T extends AutoCloseable> T add(String name, T part) {
        return add(name, part, () -> {
            try {
                part.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** Records a part that has just been built or opened, with the way it closes. */
    public <T> T add(String name, T part, Runnable close) {
        open.push(new Part(name, close));
        afterEachStep.accept(name);
        return part;
    }

    /** Plans a built part's start; {@link #startAll()} runs the plans in this order. */
    public void startLater(String name, Runnable start) {
        starts.add(new Start(name, start));
    }

    /** Starts the planned parts in order; the step of each is its name with " started". */
    public void startAll() {
        afterEachStep.accept(BUILT);
        for (Start start : starts) {
            start.start().run();
            afterEachStep.accept(start.name() + " started");
        }
        starts.clear();
    }

    /** Closes every recorded part, the last one first; one failing to close does not keep the rest open. */
    @Override
    public void close() {
        while (!open.isEmpty()) {
            Part part = open.pop();
            try {
                part.close().run();
            } catch (RuntimeException e) {
                LOG.warn("Closing {} failed; closing the rest", part.name(), e);
            }
        }
    }
}
