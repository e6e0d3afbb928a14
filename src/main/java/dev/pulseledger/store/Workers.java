package dev.pulseledger.store;

import java.time.Duration;

/** Waiting for a background worker's thread to end when its owner closes. */
public final class Workers {
    private Workers() {}

    /**
     * Waits up to {@code wait} for the thread to end. A thread never started (its node failed to
     * start first) has nothing to wait for; an interrupt while waiting is kept for the caller.
     */
    public static void awaitEnd(Thread thread, Duration wait) {
        if (thread.getState() == Thread.State.NEW) {
            return;
        }
        try {
            thread.join(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
