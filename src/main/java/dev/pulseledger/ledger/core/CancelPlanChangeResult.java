package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;

/** What became of cancelling the plan change that waits for the account's period to end. */
public sealed interface CancelPlanChangeResult extends LedgerOutcome {
    record Cancelled(PendingPlanChange cancelled) implements CancelPlanChangeResult {}

    /** No change was waiting: nothing changed. */
    record NothingPending() implements CancelPlanChangeResult, Refusal {}

    record AccountNotFound() implements CancelPlanChangeResult, Refusal {}
}
