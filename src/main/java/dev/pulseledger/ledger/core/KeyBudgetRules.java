package dev.pulseledger.ledger.core;

import dev.pulseledger.events.NewEvent;
import java.util.List;
import java.util.Optional;

/**
 * Key budgets (CONTRACT §14): a spend or hold by a key must fit each of the key's budgets on its pool in the
 * current window; what the key's spendings and holds give back (reverts, releases, expiries, a settle's
 * rest) returns to the window they were made in, so a revert of an earlier window's spending frees nothing
 * now. A window that reaches 80 % or 100 % of its budget raises its event once.
 */
final class KeyBudgetRules {
    private final BatchState batch;

    KeyBudgetRules(BatchState batch) {
        this.batch = batch;
    }

    /** The first budget of the key on the pool that {@code tokens} more would take above it; empty when all fit. */
    Optional<BudgetWindow> exceeded(Optional<String> keyId, String pool, long tokens) {
        if (keyId.isEmpty()) {
            return Optional.empty();
        }
        List<BudgetWindow> windows = batch.budgets.get(keyId.get());
        if (windows == null) {
            return Optional.empty();
        }
        for (BudgetWindow window : windows) { // a loop: this runs for every spend and hold by a key
            if (window.budget().pool().equals(pool)
                    && window.used() + tokens > window.budget().tokens()) {
                return Optional.of(window);
            }
        }
        return Optional.empty();
    }

    /**
     * Counts {@code tokens} (given back when negative) to the charged key's budgets on {@code pool} whose
     * current window the charge falls in; a give-back of a charge made in an earlier window frees nothing now.
     * The windows' new use goes into the change set, which the store keeps per window.
     */
    void count(String accountId, Optional<KeyCharge> charge, String pool, long tokens) {
        if (charge.isEmpty() || tokens == 0) {
            return;
        }
        List<BudgetWindow> windows = batch.budgets.get(charge.get().keyId());
        if (windows == null) {
            return;
        }
        for (int i = 0; i < windows.size(); i++) {
            BudgetWindow window = windows.get(i);
            if (window.budget().pool().equals(pool) && !charge.get().at().isBefore(window.start())) {
                windows.set(i, counted(accountId, window, tokens));
            }
        }
    }

    private BudgetWindow counted(String accountId, BudgetWindow window, long tokens) {
        long used = window.used() + tokens;
        long cap = window.budget().tokens();
        boolean warn = tokens > 0 && !window.warned() && used * 5 >= cap * 4;
        boolean exhaust = tokens > 0 && !window.exhausted() && used >= cap;
        BudgetWindow after = window.using(tokens, window.warned() || warn, window.exhausted() || exhaust);
        batch.changes.budgetUse.put(
                window.keyId()
                        + ' '
                        + window.budget().pool()
                        + ' '
                        + window.budget().period().wire(),
                after);
        if (warn) {
            notice(accountId, after, BudgetNotice.Level.WARNING);
        }
        if (exhaust) {
            notice(accountId, after, BudgetNotice.Level.EXHAUSTED);
        }
        return after;
    }

    private void notice(String accountId, BudgetWindow window, BudgetNotice.Level level) {
        batch.changes.budgetNotices.add(new BudgetNotice(
                window.keyId(), window.budget().pool(), window.budget().period().wire(), window.start(), level));
        batch.changes.events.add(NewEvent.keyBudgetReached(
                level == BudgetNotice.Level.EXHAUSTED,
                accountId,
                window.keyId(),
                window.budget().pool(),
                window.budget().period().wire(),
                window.budget().tokens(),
                window.used(),
                window.start(),
                window.end()));
    }
}
