package dev.pulseledger.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for something that happens in the background (a delivery, a retry) without timing it. */
public final class Waiting {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private Waiting() {}

    /** Polls until the condition holds; fails the test if it does not within a generous limit. */
    public static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Gave up waiting until " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
