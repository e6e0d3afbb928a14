package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Period;

/** What became of moving an account to another plan. */
public sealed interface PlanChangeResult extends LedgerOutcome {
    /** The account is on the plan; {@code period} is its current period. */
    record Changed(Period period) implements PlanChangeResult {}

    record UnknownPlan() implements PlanChangeResult, Refusal {}

    record AccountNotFound() implements PlanChangeResult, Refusal {}
}
