package dev.pulseledger.ledger.core;

import java.time.Instant;
import java.util.function.Supplier;

/**
 * One batch being decided: its commands are decided in queue order, each seeing what earlier ones
 * decided, and {@link #changes()} is what they changed, for the store to write in one transaction.
 */
public final class Batch implements CommandRules {
    private final BatchState state;
    private final SpendRules spends;
    private final ReservationRules reservations;
    private final AccountRules accounts;
    private final PeriodRules periods;
    private final SlaRules slas;
    private final PlanChangeRules planChanges;

    Batch(LedgerState read, Instant at, Supplier<String> grantIds) {
        this.state = new BatchState(read, at, grantIds);
        GrantRules grants = new GrantRules(state);
        KeyBudgetRules budgets = new KeyBudgetRules(state);
        HoldRules holds = new HoldRules(state, grants, budgets);
        this.periods = new PeriodRules(state, grants, holds);
        this.spends = new SpendRules(state, grants, periods, budgets);
        this.reservations = new ReservationRules(state, grants, periods, holds, budgets);
        this.accounts = new AccountRules(state, grants, periods);
        this.slas = new SlaRules(state, grants, periods);
        this.planChanges = new PlanChangeRules(state, periods);
    }

    /** Decides one command; its outcome has the command's own type. */
    public <R extends LedgerOutcome> R decide(LedgerCommand<R> command) {
        return command.decideBy(this);
    }

    /** Everything the batch's commands changed so far, as one immutable change set. */
    public ChangeSet changes() {
        return state.changeSet();
    }

    @Override
    public SpendResult spend(LedgerCommand.Spend command) {
        return spends.spend(command);
    }

    @Override
    public RevertResult revert(LedgerCommand.Revert command) {
        return spends.revert(command);
    }

    @Override
    public ReserveResult reserve(LedgerCommand.Reserve command) {
        return reservations.reserve(command);
    }

    @Override
    public SettleResult settle(LedgerCommand.Settle command) {
        return reservations.settle(command);
    }

    @Override
    public ReleaseResult release(LedgerCommand.Release command) {
        return reservations.release(command);
    }

    @Override
    public CreditResult credit(LedgerCommand.Credit command) {
        return accounts.credit(command);
    }

    @Override
    public OpenResult open(LedgerCommand.Open command) {
        return accounts.open(command);
    }

    @Override
    public PlanChangeResult changePlan(LedgerCommand.ChangePlan command) {
        return periods.changePlan(command);
    }

    @Override
    public InPeriodChangeResult changePlanInPeriod(LedgerCommand.ChangePlanInPeriod command) {
        return planChanges.change(command);
    }

    @Override
    public CancelPlanChangeResult cancelPlanChange(LedgerCommand.CancelPlanChange command) {
        return planChanges.cancel(command);
    }

    @Override
    public TouchResult touch(LedgerCommand.Touch command) {
        return periods.touch(command);
    }

    @Override
    public SlaCreditResult slaCredit(LedgerCommand.SlaCredit command) {
        return slas.credit(command);
    }

    @Override
    public RevokeResult revokeGrant(LedgerCommand.RevokeGrant command) {
        return slas.revoke(command);
    }
}
