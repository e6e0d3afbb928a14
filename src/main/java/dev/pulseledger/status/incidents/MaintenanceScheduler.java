package dev.pulseledger.status.incidents;

import dev.pulseledger.store.Workers;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs on every node and takes the maintenance steps that are due by the clock. Every node tries;
 * the store's claims make each step happen once, on whichever node is up and gets there first.
 */
public final class MaintenanceScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceScheduler.class);

    private final MaintenanceStore store;
    private final Clock clock;
    private final Duration interval;
    private final Runnable changed;
    private final Thread thread;
    private volatile boolean running = true;

    /**
     * A scheduler that, once started, checks every {@code interval} for maintenance windows to begin or end.
     *
     * @param changed told after this node took a step, so its own caches show the new statuses at once
     */
    public MaintenanceScheduler(MaintenanceStore store, Clock clock, Duration interval, Runnable changed) {
        this.store = store;
        this.clock = clock;
        this.interval = interval;
        this.changed = changed;
        this.thread =
                Thread.ofPlatform().name("maintenance-scheduler").daemon(true).unstarted(this::loop);
    }

    public MaintenanceScheduler start() {
        thread.start();
        return this;
    }

    private void loop() {
        boolean failing = false;
        while (running) {
            try {
                int steps = store.startDue(clock.instant()) + store.endDue(clock.instant());
                if (steps > 0) {
                    changed.run();
                }
                failing = false;
            } catch (RuntimeException e) {
                if (!failing) {
                    LOG.warn("Taking due maintenance steps failed; retrying: {}", e.toString());
                }
                failing = true;
            }
            try {
                Thread.sleep(interval);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        Workers.awaitEnd(thread, Duration.ofSeconds(5));
    }
}
