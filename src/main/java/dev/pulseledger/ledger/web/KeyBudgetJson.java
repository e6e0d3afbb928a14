package dev.pulseledger.ledger.web;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.ledger.core.BudgetWindow;
import java.util.List;

/** The JSON of key budgets (CONTRACT §14): a budget, its window's use, and the 402 of a budget exceeded. */
public final class KeyBudgetJson {
    private KeyBudgetJson() {}

    /** A budget as set. */
    public record BudgetBody(String pool, String period, long tokens) {}

    /** A budget with its use in the current window. */
    public record WindowBody(String pool, String period, long tokens, long used, long remaining, String resetsAt) {}

    /** {@code GET /api/tokens/key}. */
    record KeyBody(String keyId, String name, List<WindowBody> budgets) {}

    /** The extension members of 402 key_budget_exceeded. */
    record ExceededBody(BudgetBody budget, long used, String resetsAt) {}

    public static BudgetBody budget(KeyBudget budget) {
        return new BudgetBody(budget.pool(), budget.period().wire(), budget.tokens());
    }

    public static WindowBody window(BudgetWindow window) {
        KeyBudget budget = window.budget();
        return new WindowBody(
                budget.pool(),
                budget.period().wire(),
                budget.tokens(),
                window.used(),
                window.remaining(),
                Times.format(window.end()));
    }

    /** 402 key_budget_exceeded: the budget, what the key used of it in this window, and when it resets. */
    static ProblemException exceeded(String what, BudgetWindow window) {
        KeyBudget budget = window.budget();
        return new ProblemException(
                ProblemCode.KEY_BUDGET_EXCEEDED,
                "This " + what + " would take this key above its "
                        + budget.period().wire() + " budget of "
                        + budget.tokens() + " tokens in pool '" + budget.pool() + "' (" + window.used()
                        + " used); it resets at " + Times.format(window.end()) + ".",
                new ExceededBody(budget(budget), window.used(), Times.format(window.end())));
    }
}
