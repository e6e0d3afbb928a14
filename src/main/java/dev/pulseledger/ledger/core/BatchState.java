package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The working state of one batch while its commands are decided: the accounts, grants, draws and
 * reservations as earlier commands left them, and the {@link BatchChanges} they made. Every rule reads and
 * changes the batch through here, so a balance never moves without its ledger line's account being noted.
 */
final class BatchState {
    final LedgerState read;
    final Instant now;
    private final Supplier<String> grantIds;
    final Map<String, WorkingAccount> accounts = new HashMap<>();
    /** Accounts already brought up to date in this batch. */
    final Set<String> upToDate = new HashSet<>();

    final Map<String, Grant> grants = new HashMap<>();
    /** What each spending and reservation drew from each grant, by its id. */
    final Map<String, List<Allocation>> allocations = new HashMap<>();

    final Map<String, Reservation> reservations;
    /** The budgets of the batch's keys in their windows, as its commands leave them, by key id. */
    final Map<String, List<BudgetWindow>> budgets = new HashMap<>();

    final BatchChanges changes = new BatchChanges();

    BatchState(LedgerState read, Instant now, Supplier<String> grantIds) {
        this.read = read;
        this.now = now;
        this.grantIds = grantIds;
        for (AccountState account : read.accounts().values()) {
            WorkingAccount working =
                    new WorkingAccount(account, read.holdsDueAfter().getOrDefault(account.id(), account.dueAt()));
            accounts.put(account.id(), working);
            for (Grant grant : account.grants()) {
                grants.put(grant.id(), grant);
                working.grantIds.add(grant.id());
            }
        }
        read.allocations().forEach((ownerId, list) -> allocations.put(ownerId, new ArrayList<>(list)));
        this.reservations = new HashMap<>(read.reservations());
        read.keyBudgets().forEach((keyId, windows) -> budgets.put(keyId, new ArrayList<>(windows)));
    }

    String newGrantId() {
        return grantIds.get();
    }

    Grant grant(String grantId) {
        Grant grant = grants.get(grantId);
        if (grant == null) {
            throw new IllegalStateException("Grant " + grantId + " was not read");
        }
        return grant;
    }

    void putGrant(Grant grant) {
        grants.put(grant.id(), grant);
        changes.changedGrantIds.add(grant.id());
    }

    /**
     * Every ledger line follows one, so the changed balances name every account with a new line (with the
     * {@code default} pool's balance, which is the one the account's row keeps); returns the pool's balance.
     */
    long addToBalance(WorkingAccount account, String pool, long tokens) {
        long after = account.balance(pool) + tokens;
        if (after < 0) {
            throw new IllegalStateException("A balance would go negative: " + account.id + "/" + pool);
        }
        if (pool.equals(Pools.DEFAULT)) {
            account.balance = after;
        } else {
            account.poolBalances.put(pool, after);
        }
        changes.balances.put(account.id, account.balance);
        return after;
    }

    void line(
            WorkingAccount account,
            String pool,
            LedgerKind kind,
            long amount,
            Optional<String> ownerId,
            Optional<String> grantId) {
        changes.lines.add(new LedgerLine(
                account.id, pool, kind, amount, account.balance(pool), ownerId, grantId, Optional.empty()));
    }

    /** The spending as this batch left it, else as the store read it; null when neither knows it. */
    @Nullable
    Spending spending(String spendingId) {
        Spending decidedHere =
                changes.newSpendings.getOrDefault(spendingId, changes.revertedEarlierSpendings.get(spendingId));
        return decidedHere != null ? decidedHere : read.spendings().get(spendingId);
    }

    /** A spending the batch made or changed, as it now stands. */
    void putSpending(Spending spending) {
        if (changes.newSpendings.containsKey(spending.id()) || spending.revertedAmount() == 0) {
            changes.newSpendings.put(spending.id(), spending);
        } else {
            changes.revertedEarlierSpendings.put(spending.id(), spending);
        }
    }

    /** The first outcome under the key, made earlier in this batch or read; null when it is new. */
    @Nullable
    IdempotencyRecord idempotencyRecord(IdempotencyScope scope) {
        return changes.idempotencyRecords.getOrDefault(
                scope, read.idempotencyRecords().get(scope));
    }

    /** The batch's changes as one immutable change set. */
    ChangeSet changeSet() {
        List<AccountPeriod> periods = accounts.values().stream()
                .filter(a -> a.periodChanged)
                .map(WorkingAccount::accountPeriod)
                .toList();
        List<Allocation> newAllocations = changes.allocating.stream()
                .flatMap(id -> allocations.getOrDefault(id, List.of()).stream())
                .toList();
        List<Allocation> returned = changes.returning.stream()
                .filter(id -> !changes.allocating.contains(id))
                .flatMap(id -> allocations.getOrDefault(id, List.of()).stream())
                .toList();
        return new ChangeSet(
                now,
                changes.newAccounts,
                changes.balances,
                periods,
                changes.newGrantIds.stream().map(grants::get).toList(),
                changes.changedGrantIds.stream()
                        .filter(id -> !changes.newGrantIds.contains(id))
                        .map(grants::get)
                        .toList(),
                newAllocations,
                returned,
                List.copyOf(changes.newSpendings.values()),
                List.copyOf(changes.revertedEarlierSpendings.values()),
                changes.lines,
                List.copyOf(changes.idempotencyRecords.values()),
                changes.events,
                changes.newReservationIds.stream().map(reservations::get).toList(),
                changes.endedReservationIds.stream()
                        .filter(id -> !changes.newReservationIds.contains(id))
                        .map(reservations::get)
                        .toList(),
                accounts.values().stream()
                        .filter(a -> a.poolsChanged)
                        .collect(Collectors.toMap(a -> a.id, a -> Set.copyOf(a.pools))),
                List.copyOf(changes.slaPeriods.values()),
                List.copyOf(changes.revocations.values()),
                changes.budgetNotices,
                List.copyOf(changes.budgetUse.values()));
    }
}
