package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One account while a batch decides it: its balances, plan and period as the batch's commands leave them.
 * {@code balance} is the {@code default} pool's, kept on the account's row; a named pool's balance is what
 * its grants have left, so it is summed from them when the batch starts.
 */
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
    /** The plan change that waits for the period's end (CONTRACT §13); its plan's terms are in the batch's plans. */
    Optional<PendingPlanChange> pending;
    /** No earlier than the expiry of any held reservation of the account that the store did not read. */
    Instant unreadHoldsFrom;

    final List<String> grantIds = new ArrayList<>();
    /** The balance of each named pool. */
    final Map<String, Long> poolBalances = new HashMap<>();
    /** The named pools on record, in name order. */
    final TreeSet<String> pools = new TreeSet<>();

    boolean poolsChanged;

    WorkingAccount(AccountState state, Instant unreadHoldsFrom) {
        this.id = state.id();
        this.lowBalanceThreshold = state.lowBalanceThreshold();
        this.balance = state.balance();
        this.plan = state.plan();
        this.anchor = state.anchor();
        this.period = state.period();
        this.periodGranted = state.periodGranted();
        this.dueAt = state.dueAt();
        this.pending = state.pendingChange();
        this.unreadHoldsFrom = unreadHoldsFrom;
        this.pools.addAll(state.pools());
        for (Grant grant : state.grants()) {
            if (!grant.pool().equals(Pools.DEFAULT)) {
                poolBalances.merge(grant.pool(), grant.remaining(), Long::sum);
            }
        }
    }

    /** An account the batch opens at {@code now}. */
    WorkingAccount(String id, PlanTerms plan, Instant now) {
        this.id = id;
        this.lowBalanceThreshold = Optional.empty();
        this.plan = plan;
        this.anchor = now;
        this.period = Optional.empty();
        this.dueAt = now;
        this.pending = Optional.empty();
        this.unreadHoldsFrom = Instant.MAX;
        this.periodChanged = true;
    }

    long balance(String pool) {
        return pool.equals(Pools.DEFAULT) ? balance : poolBalances.getOrDefault(pool, 0L);
    }

    /** True when the pool is {@code default}, on record, or one its plan grants in. */
    boolean has(String pool) {
        return pool.equals(Pools.DEFAULT)
                || pools.contains(pool)
                || plan.pools().containsKey(pool);
    }

    /** How many pools it has, {@code default} included, and {@code pool} if it is new. */
    int poolCountWith(String pool) {
        TreeSet<String> all = new TreeSet<>(pools);
        all.addAll(plan.pools().keySet());
        all.add(pool);
        all.remove(Pools.DEFAULT);
        return all.size() + 1;
    }

    /** Puts a named pool on record. */
    void notePool(String pool) {
        if (!pool.equals(Pools.DEFAULT) && pools.add(pool)) {
            poolsChanged = true;
        }
    }

    AccountPeriod accountPeriod() {
        return new AccountPeriod(id, plan.planId(), planChanged, anchor, period, periodGranted, dueAt, pending);
    }

    /** The account needs the core again no later than {@code at}. */
    void dueNoLaterThan(Instant at) {
        if (at.isBefore(dueAt)) {
            dueAt = at;
            periodChanged = true;
        }
    }
}
