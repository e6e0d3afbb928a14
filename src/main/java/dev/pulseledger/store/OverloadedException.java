package dev.pulseledger.store;

/** A work queue is full or stopping; the caller should retry shortly. */
public final class OverloadedException extends RuntimeException {
    public OverloadedException() {
        super("The queue is full", null, false, false);
    }
}
