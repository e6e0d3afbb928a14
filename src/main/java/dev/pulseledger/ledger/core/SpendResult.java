package dev.pulseledger.ledger.core;

/** What became of a spend request. */
public sealed interface SpendResult extends LedgerOutcome {
    /** Tokens were taken; {@code balance} is what remained right after. */
    record Spent(Spending spending, long balance, boolean replayed) implements SpendResult {}

    /** The balance was below the amount; nothing changed. */
    record InsufficientBalance(long balance, long required, boolean replayed) implements SpendResult, Refusal {}

    /** The spend would take the key above one of its budgets in the current window; nothing changed. */
    record KeyBudgetExceeded(BudgetWindow window) implements SpendResult, Refusal {}

    /** The account has no such pool; nothing changed. */
    record PoolNotFound(String pool) implements SpendResult, Refusal {}

    /** The idempotency key was first used with a different amount. */
    record IdempotencyKeyReused(long firstAmount) implements SpendResult, Refusal {}

    /** A request with the same idempotency key is still being handled. */
    record IdempotencyKeyInUse() implements SpendResult, Refusal {}
}
