package dev.pulseledger.support;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for what happens in the background (a delivery, a retry, an event) without timing it. */
public final class Waiting {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private Waiting() {}

    /** The next item of a queue filled in the background, waiting up to {@code timeout}. */
    public static <T> Optional<T> next(BlockingQueue<T> queue, Duration timeout) {
        try {
            return Optional.ofNullable(queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

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
