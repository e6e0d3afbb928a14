package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.events.NewEvent;
import java.util.Optional;

/**
 * Plan changes within a period (CONTRACT §13): {@code now} keeps the period and prorates the new plan's
 * allowance over what is left of it; {@code period_end} records the change on the account, for the renewal
 * at the period's end to apply once ({@link PeriodRules}); a second one replaces the first, and a cancel
 * drops it.
 */
final class PlanChangeRules {
    private final BatchState batch;
    private final PeriodRules periods;

    PlanChangeRules(BatchState batch, PeriodRules periods) {
        this.batch = batch;
        this.periods = periods;
    }

    InPeriodChangeResult change(LedgerCommand.ChangePlanInPeriod command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new InPeriodChangeResult.AccountNotFound();
        }
        PlanTerms plan = batch.read.plans().get(command.planId());
        if (plan == null) {
            return new InPeriodChangeResult.UnknownPlan();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        if (plan.planId().equals(account.plan.planId())) {
            return new InPeriodChangeResult.SamePlan();
        }
        return switch (command.when()) {
            case NOW -> periods.changeNow(account, plan);
            case PERIOD_END -> schedule(account, plan);
        };
    }

    private InPeriodChangeResult schedule(WorkingAccount account, PlanTerms plan) {
        Period period = account.period.orElseThrow();
        Optional<String> replaced = account.pending.map(PendingPlanChange::planId);
        PendingPlanChange pending = new PendingPlanChange(plan.planId(), period.end());
        account.pending = Optional.of(pending);
        account.periodChanged = true;
        batch.changes.events.add(
                NewEvent.planChangeScheduled(account.id, account.plan.planId(), plan.planId(), pending.at(), replaced));
        return new InPeriodChangeResult.Scheduled(pending, account.plan.planId(), replaced);
    }

    CancelPlanChangeResult cancel(LedgerCommand.CancelPlanChange command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new CancelPlanChangeResult.AccountNotFound();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        if (account.pending.isEmpty()) {
            return new CancelPlanChangeResult.NothingPending();
        }
        PendingPlanChange cancelled = account.pending.get();
        account.pending = Optional.empty();
        account.periodChanged = true;
        return new CancelPlanChangeResult.Cancelled(cancelled);
    }
}
