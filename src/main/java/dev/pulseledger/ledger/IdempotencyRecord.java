package dev.pulseledger.ledger;

import java.time.Instant;
import java.util.Optional;

/**
 * The first outcome of a spend made under an idempotency key: enough to answer a repeat with the
 * same status and body.
 */
public record IdempotencyRecord(
        String accountId,
        String key,
        long amount,
        String outcome,
        Optional<String> spendingId,
        long balance,
        Instant createdAt) {

    public static final String SPENT = "spent";
    public static final String INSUFFICIENT_BALANCE = "insufficient_balance";

    static IdempotencyRecord of(SpendRequest request, SpendResult result, Instant at) {
        String key = request.idempotencyKey().orElseThrow();
        return switch (result) {
            case SpendResult.Spent spent ->
                new IdempotencyRecord(
                        request.accountId(),
                        key,
                        request.amount(),
                        SPENT,
                        Optional.of(spent.spending().id()),
                        spent.balance(),
                        at);
            case SpendResult.InsufficientBalance insufficient ->
                new IdempotencyRecord(
                        request.accountId(),
                        key,
                        request.amount(),
                        INSUFFICIENT_BALANCE,
                        Optional.empty(),
                        insufficient.balance(),
                        at);
            default -> throw new IllegalArgumentException("Not a first outcome: " + result);
        };
    }

    /** The first response again, or a refusal when the repeat asks for another amount. */
    SpendResult replay(SpendRequest repeat) {
        if (repeat.amount() != amount) {
            return new SpendResult.IdempotencyKeyReused(amount);
        }
        if (SPENT.equals(outcome)) {
            Spending spending =
                    new Spending(spendingId.orElseThrow(), accountId, amount, false, createdAt, Optional.empty());
            return new SpendResult.Spent(spending, balance, true);
        }
        return new SpendResult.InsufficientBalance(balance, amount, true);
    }
}
