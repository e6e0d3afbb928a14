package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Pools;
import java.util.Optional;

/**
 * A caller's wish to spend {@code amount} tokens from one pool, optionally under an idempotency key;
 * {@code keyId} is the key that asks, whose budgets it must fit (CONTRACT §14).
 */
public record SpendRequest(
        String accountId, long amount, Optional<String> idempotencyKey, String pool, Optional<String> keyId) {
    public static final long MIN_AMOUNT = 1;
    public static final long MAX_AMOUNT = 1_000_000_000;

    public SpendRequest {
        if (amount < MIN_AMOUNT || amount > MAX_AMOUNT) {
            throw new IllegalArgumentException("amount out of range: " + amount);
        }
    }

    /** A spend by no key, from {@code pool}. */
    public SpendRequest(String accountId, long amount, Optional<String> idempotencyKey, String pool) {
        this(accountId, amount, idempotencyKey, pool, Optional.empty());
    }

    /** A spend by no key, from the {@code default} pool. */
    public SpendRequest(String accountId, long amount, Optional<String> idempotencyKey) {
        this(accountId, amount, idempotencyKey, Pools.DEFAULT);
    }
}
