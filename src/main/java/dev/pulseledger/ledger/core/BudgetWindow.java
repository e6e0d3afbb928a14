package dev.pulseledger.ledger.core;

import dev.pulseledger.keys.KeyBudget;
import java.time.Instant;

/**
 * One budget of a key in the window it is in, as read with the key's account locked: what the key used of
 * the budget's pool in the window (spent and not reverted, held, settled, each counted at the time it was
 * made) and which of its notices the window has had.
 *
 * @param start the window's first instant
 * @param end the window's end, when the budget resets
 */
public record BudgetWindow(
        String keyId, KeyBudget budget, Instant start, Instant end, long used, boolean warned, boolean exhausted) {

    /** The tokens left in the window, never negative. */
    public long remaining() {
        return Math.max(0, budget.tokens() - used);
    }

    /** True when something made at {@code at} counts in this window. */
    boolean holds(Instant at) {
        return !at.isBefore(start) && at.isBefore(end);
    }

    BudgetWindow using(long tokens, boolean warnedNow, boolean exhaustedNow) {
        return new BudgetWindow(keyId, budget, start, end, used + tokens, warnedNow, exhaustedNow);
    }
}
