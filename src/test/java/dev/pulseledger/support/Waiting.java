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
        if (!within(LIMIT, condition)) {
            throw new AssertionError("Gave up waiting until " + what);
        }
    }

    /** Polls until the condition holds or {@code limit} has passed; tells which came first. */
    public static boolean within(Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return true;
    }
}
