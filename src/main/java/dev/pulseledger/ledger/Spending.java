package dev.pulseledger.ledger;

import java.time.Instant;
import java.util.Optional;

/** One spending of tokens by an account; reverting it gives the amount back once. */
public record Spending(
        String id, String accountId, long amount, boolean reverted, Instant createdAt, Optional<Instant> revertedAt) {

    public Spending revertedAt(Instant at) {
        return new Spending(id, accountId, amount, true, createdAt, Optional.of(at));
    }
}
