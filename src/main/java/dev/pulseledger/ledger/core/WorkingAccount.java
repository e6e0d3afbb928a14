package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One account while a batch decides it: its balance, plan and period as the batch's commands leave them. */
final class WorkingAccount {
    final String id;
    final Optional<Long> lowBalanceThreshold;
    long balance;
    PlanTerms plan;
    Instant anchor;
    Optional<Period> period;
    long periodGranted;
    Instant dueAt;
    boolean periodChanged;
    boolean planChanged;
    /** No earlier than the expiry of any held reservation of the account that the store did not read. */
    Instant unreadHoldsFrom;

    final List<String> grantIds = new ArrayList<>();

    WorkingAccount(AccountState state, Instant unreadHoldsFrom) {
        this.id = state.id();
        this.lowBalanceThreshold = state.lowBalanceThreshold();
        this.balance = state.balance();
        this.plan = state.plan();
        this.anchor = state.anchor();
        this.period = state.period();
        this.periodGranted = state.periodGranted();
        this.dueAt = state.dueAt();
        this.unreadHoldsFrom = unreadHoldsFrom;
    }

    /** An account the batch opens at {@code now}. */
    WorkingAccount(String id, PlanTerms plan, Instant now) {
        this.id = id;
        this.lowBalanceThreshold = Optional.empty();
        this.plan = plan;
        this.anchor = now;
        this.period = Optional.empty();
        this.dueAt = now;
        this.unreadHoldsFrom = Instant.MAX;
        this.periodChanged = true;
    }

    AccountPeriod accountPeriod() {
        return new AccountPeriod(id, plan.planId(), planChanged, anchor, period, periodGranted, dueAt);
    }

    /** The account needs the core again no later than {@code at}. */
    void dueNoLaterThan(Instant at) {
        if (at.isBefore(dueAt)) {
            dueAt = at;
            periodChanged = true;
        }
    }
}
