package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import java.time.Instant;
import java.util.Optional;

/** What became of a plan change within the account's period (CONTRACT §13). */
public sealed interface InPeriodChangeResult extends LedgerOutcome {
    /**
     * The account moved to {@code planId} at {@code at}, keeping {@code period}: {@code expired} tokens of the old
     * allowance expired and {@code granted} were granted in the {@code default} pool; {@code balance} is after.
     */
    record Changed(
            String previousPlanId, String planId, Instant at, Period period, long expired, long granted, long balance)
            implements InPeriodChangeResult {}

    /** The change waits for the period's end; {@code replaced} is the plan of the change it replaced, if any. */
    record Scheduled(PendingPlanChange pending, String currentPlanId, Optional<String> replaced)
            implements InPeriodChangeResult {}

    /** The account is on that plan already: nothing changed. */
    record SamePlan() implements InPeriodChangeResult, Refusal {}

    record UnknownPlan() implements InPeriodChangeResult, Refusal {}

    record AccountNotFound() implements InPeriodChangeResult, Refusal {}
}
