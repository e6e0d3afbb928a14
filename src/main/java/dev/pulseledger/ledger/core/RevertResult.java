package dev.pulseledger.ledger.core;

/** What became of a revert request. */
public sealed interface RevertResult extends LedgerOutcome {
    /** The spending is reverted (now or earlier, wholly or in part); {@code balance} is the balance after. */
    record Reverted(Spending spending, long balance, boolean replayed) implements RevertResult {}

    /** No spending with that id belongs to the account. */
    record NotFound() implements RevertResult, Refusal {}

    /** A partial revert asked for more than is left unreverted; nothing changed. */
    record AmountExceedsUnreverted(long unreverted) implements RevertResult, Refusal {}

    /** The idempotency key was first used for another request. */
    record IdempotencyKeyReused() implements RevertResult, Refusal {}

    /** A request with the same idempotency key is still being handled. */
    record IdempotencyKeyInUse() implements RevertResult, Refusal {}
}
