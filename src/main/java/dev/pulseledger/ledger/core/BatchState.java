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
    /** What each spending and reservation drew from each grant, by its id: a list is replaced, never changed. */
    final Map<String, List<Allocation>> allocations;

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
        this.allocations = new HashMap<>(read.allocations());
        this.reservations = new HashMap<>(read.reservations());
        for (Map.Entry<String, List<BudgetWindow>> key : read.keyBudgets().entrySet()) {
            budgets.put(key.getKey(), new ArrayList<>(key.getValue())); // counting sets its windows
        }
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

    /**
     * The batch's changes as one immutable change set. Loops, not streams: this runs for every round, and
     * most of its parts are empty or of one element; {@link ChangeSet} makes the one copy of each list.
     */
    ChangeSet changeSet() {
        return new ChangeSet(
                now,
                changes.newAccounts,
                changes.balances,
                changedPeriods(),
                valuesOf(changes.newGrantIds, Set.of(), grants),
                valuesOf(changes.changedGrantIds, changes.newGrantIds, grants),
                drawsOf(changes.allocating, Set.of()),
                drawsOf(changes.returning, changes.allocating),
                List.copyOf(changes.newSpendings.values()),
                List.copyOf(changes.revertedEarlierSpendings.values()),
                changes.lines,
                List.copyOf(changes.idempotencyRecords.values()),
                changes.events,
                valuesOf(changes.newReservationIds, Set.of(), reservations),
                valuesOf(changes.endedReservationIds, changes.newReservationIds, reservations),
                changedPools(),
                List.copyOf(changes.slaPeriods.values()),
                List.copyOf(changes.revocations.values()),
                changes.budgetNotices,
                List.copyOf(changes.budgetUse.values()));
    }

    private List<AccountPeriod> changedPeriods() {
        List<AccountPeriod> periods = new ArrayList<>();
        for (WorkingAccount account : accounts.values()) {
            if (account.periodChanged) {
                periods.add(account.accountPeriod());
            }
        }
        return periods;
    }

    /** The named pools of each account that got a new one. */
    private Map<String, Set<String>> changedPools() {
        Map<String, Set<String>> pools = new HashMap<>();
        for (WorkingAccount account : accounts.values()) {
            if (account.poolsChanged) {
                pools.put(account.id, Set.copyOf(account.pools));
            }
        }
        return pools;
    }

    /** What the spendings and reservations of {@code ownerIds}, less those of {@code except}, drew. */
    private List<Allocation> drawsOf(Set<String> ownerIds, Set<String> except) {
        if (ownerIds.isEmpty()) {
            return List.of();
        }
        List<Allocation> draws = new ArrayList<>();
        for (String ownerId : ownerIds) {
            if (!except.contains(ownerId)) {
                draws.addAll(allocations.getOrDefault(ownerId, List.of()));
            }
        }
        return draws;
    }

    /** The values of {@code ids}, less those of {@code except}, in the order of {@code ids}. */
    private static <T> List<T> valuesOf(Set<String> ids, Set<String> except, Map<String, T> byId) {
        if (ids.isEmpty()) {
            return List.of();
        }
        List<T> values = new ArrayList<>(ids.size());
        for (String id : ids) {
            if (!except.contains(id)) {
                values.add(byId.get(id));
            }
        }
        return values;
    }
}
