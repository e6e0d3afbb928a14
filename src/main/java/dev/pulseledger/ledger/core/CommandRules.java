package dev.pulseledger.ledger.core;

/**
 * One rule per {@link LedgerCommand}, each answering with its command's own outcome type: a new command
 * needs a method here, and the compiler then asks {@link Batch} for its rule.
 */
public interface CommandRules {
    SpendResult spend(LedgerCommand.Spend command);

    RevertResult revert(LedgerCommand.Revert command);

    ReserveResult reserve(LedgerCommand.Reserve command);

    SettleResult settle(LedgerCommand.Settle command);

    ReleaseResult release(LedgerCommand.Release command);

    CreditResult credit(LedgerCommand.Credit command);

    OpenResult open(LedgerCommand.Open command);

    PlanChangeResult changePlan(LedgerCommand.ChangePlan command);

    InPeriodChangeResult changePlanInPeriod(LedgerCommand.ChangePlanInPeriod command);

    CancelPlanChangeResult cancelPlanChange(LedgerCommand.CancelPlanChange command);

    TouchResult touch(LedgerCommand.Touch command);

    SlaCreditResult slaCredit(LedgerCommand.SlaCredit command);

    RevokeResult revokeGrant(LedgerCommand.RevokeGrant command);
}
