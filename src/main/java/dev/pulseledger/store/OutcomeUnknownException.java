package dev.pulseledger.store;

/** No outcome arrived in time: the command may or may not have been applied. */
public final class OutcomeUnknownException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OutcomeUnknownException() {
        super("No outcome arrived in time", null, false, false);
    }
}
