package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.Pools;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An account's balance with its breakdown (CONTRACT §7): what its period's allowance granted and has
 * left, the tokens of its other grants, the tokens its live reservations hold (not part of the balance),
 * and its next expiry. {@code dueAt} says when the ledger next has
 * a renewal or an expiry to do: a view read at or after it is stale. The fields are the {@code default}
 * pool's; {@code pools} has the same view of each named pool (CONTRACT §14), whose own {@code pools} is empty.
 * {@code pendingChange} is the plan change that waits for the period's end (CONTRACT §13), the account's.
 */
public record BalanceView(
        long balance,
        Optional<Period> period,
        long periodGranted,
        long allowanceRemaining,
        long credits,
        long held,
        Optional<Expiry> nextExpiry,
        Instant dueAt,
        Map<String, BalanceView> pools,
        Optional<PendingPlanChange> pendingChange) {

    public BalanceView {
        pools = Map.copyOf(pools);
    }

    /** {@code amount} tokens expire at {@code at}. */
    public record Expiry(long amount, Instant at) {}

    /** An empty named pool of an account whose view is this, granting {@code granted} each period. */
    BalanceView emptyPool(long granted) {
        return new BalanceView(0, period, granted, 0, 0, 0, Optional.empty(), dueAt, Map.of(), Optional.empty());
    }

    /** The view of one pool: this one for {@code default}, else a named one's; empty when it has none such. */
    public Optional<BalanceView> ofPool(String pool) {
        return Pools.DEFAULT.equals(pool) ? Optional.of(this) : Optional.ofNullable(pools.get(pool));
    }

    /** Adds one live grant's tokens to the breakdown (and to the balance when {@code addToBalance}). */
    BalanceView with(boolean allowance, long remaining, Optional<Instant> expiresAt, boolean addToBalance) {
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
                balance + (addToBalance ? remaining : 0),
                period,
                periodGranted,
                allowanceRemaining + (allowance ? remaining : 0),
                credits + (allowance ? 0 : remaining),
                held,
                next,
                dueAt,
                pools,
                pendingChange);
    }

    BalanceView withHeld(long tokens) {
        return new BalanceView(
                balance,
                period,
                periodGranted,
                allowanceRemaining,
                credits,
                tokens,
                nextExpiry,
                dueAt,
                pools,
                pendingChange);
    }

    BalanceView withPool(String pool, BalanceView view) {
        Map<String, BalanceView> all = new TreeMap<>(pools);
        all.put(pool, view);
        return new BalanceView(
                balance,
                period,
                periodGranted,
                allowanceRemaining,
                credits,
                held,
                nextExpiry,
                dueAt,
                all,
                pendingChange);
    }
}
