package dev.pulseledger.tokens;

/** The spend queue is full; the caller should retry shortly. */
public final class OverloadedException extends RuntimeException {
    public OverloadedException() {
        super("The spend queue is full", null, false, false);
    }
}
