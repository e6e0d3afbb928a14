package dev.pulseledger.ledger.core;

import java.time.Instant;
import java.util.Optional;

/**
 * One spending of tokens by an account; reverts give back at most its amount, in one go or in parts.
 * {@code revertedAt} is the time of the latest revert; its tokens came from one {@code pool}; {@code charge}
 * names the key whose budgets count it, if a key made it.
 */
public record Spending(
        String id,
        String accountId,
        String pool,
        long amount,
        long revertedAmount,
        Instant createdAt,
        Optional<Instant> revertedAt,
        Optional<KeyCharge> charge) {

    public Spending {
        if (amount <= 0 || revertedAmount < 0 || revertedAmount > amount) {
            throw new IllegalStateException("A spending does not add up: " + id);
        }
    }

    /** True once all of it is refunded. */
    public boolean reverted() {
        return revertedAmount == amount;
    }

    public long unreverted() {
        return amount - revertedAmount;
    }

    /** active, partially_reverted or reverted (CONTRACT §8). */
    public String status() {
        if (reverted()) {
            return "reverted";
        }
        return revertedAmount > 0 ? "partially_reverted" : "active";
    }

    Spending reverting(long tokens, Instant at) {
        return new Spending(id, accountId, pool, amount, revertedAmount + tokens, createdAt, Optional.of(at), charge);
    }
}
