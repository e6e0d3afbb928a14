package dev.pulseledger.store;

/** A work queue is full or stopping; the caller should retry shortly. */
public final class OverloadedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OverloadedException() {
        super("The queue is full", null, false, false);
    }
}
