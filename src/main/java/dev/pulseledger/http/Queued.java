package dev.pulseledger.http;

import dev.pulseledger.store.OutcomeUnknownException;
import dev.pulseledger.store.OverloadedException;
import java.util.function.Supplier;

/** Runs a call that waits in a queue, turning a full queue or a lost answer into a 503. */
public final class Queued {
    static final String OUTCOME_UNKNOWN = "The change did not finish in time and may or may not have happened;"
            + " retry a spend with the same Idempotency-Key to find out.";

    private Queued() {}

    public static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (OverloadedException e) {
            throw new ProblemException(ProblemCode.OVERLOADED, "Too many requests are queued; retry shortly.")
                    .withHeader("Retry-After", "1");
        } catch (OutcomeUnknownException e) {
            throw new ProblemException(ProblemCode.OUTCOME_UNKNOWN, OUTCOME_UNKNOWN).withHeader("Retry-After", "1");
        }
    }
}
