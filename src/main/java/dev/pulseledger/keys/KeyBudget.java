package dev.pulseledger.keys;

/** A cap on what one key may take from one pool in each window of {@code period} (CONTRACT §14). */
public record KeyBudget(String pool, BudgetPeriod period, long tokens) {
    /** The most budgets one key may carry. */
    public static final int MAX_PER_KEY = 4;
    /** The largest budget, as large as a plan's allowance may be. */
    public static final long MAX_TOKENS = 1_000_000_000_000L;

    public KeyBudget {
        if (tokens <= 0) {
            throw new IllegalArgumentException("A budget must be positive: " + tokens);
        }
    }
}
