package dev.pulseledger.ledger.core;

/** What became of a request to hold tokens. */
public sealed interface ReserveResult extends LedgerOutcome {
    /** The tokens are held; {@code balance} is what remained right after. */
    record Reserved(Reservation reservation, long balance, boolean replayed) implements ReserveResult {}

    /** The balance was below the amount; nothing is held. */
    record InsufficientBalance(long balance, long required, boolean replayed) implements ReserveResult, Refusal {}

    /** The hold would take the key above one of its budgets in the current window; nothing is held. */
    record KeyBudgetExceeded(BudgetWindow window) implements ReserveResult, Refusal {}

    /** The account has no such pool; nothing is held. */
    record PoolNotFound(String pool) implements ReserveResult, Refusal {}

    /** The idempotency key was first used for another request. */
    record IdempotencyKeyReused() implements ReserveResult, Refusal {}

    /** A request with the same idempotency key is still being handled. */
    record IdempotencyKeyInUse() implements ReserveResult, Refusal {}
}
