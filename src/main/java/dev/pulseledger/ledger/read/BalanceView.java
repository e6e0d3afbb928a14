package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.Period;
import java.time.Instant;
import java.util.Optional;

/**
 * An account's balance with its breakdown (CONTRACT §7): what its period's allowance granted and has
 * left, the tokens of its other grants, the tokens its live reservations hold (not part of the balance),
 * and its next expiry. {@code dueAt} says when the ledger next has
 * a renewal or an expiry to do: a view read at or after it is stale.
 */
public record BalanceView(
        long balance,
        Optional<Period> period,
        long periodGranted,
        long allowanceRemaining,
        long credits,
        long held,
        Optional<Expiry> nextExpiry,
        Instant dueAt) {

    /** {@code amount} tokens expire at {@code at}. */
    public record Expiry(long amount, Instant at) {}

    /** Adds one live grant's tokens to the view. */
    BalanceView with(boolean allowance, long remaining, Optional<Instant> expiresAt) {
        Optional<Expiry> next = nextExpiry;
        if (expiresAt.isPresent()) {
            Instant at = expiresAt.get();
            if (next.isEmpty() || at.isBefore(next.get().at())) {
                next = Optional.of(new Expiry(remaining, at));
            } else if (at.equals(next.get().at())) {
                next = Optional.of(new Expiry(next.get().amount() + remaining, at));
            }
        }
        return new BalanceView(
                balance,
                period,
                periodGranted,
                allowanceRemaining + (allowance ? remaining : 0),
                credits + (allowance ? 0 : remaining),
                held,
                next,
                dueAt);
    }
}
