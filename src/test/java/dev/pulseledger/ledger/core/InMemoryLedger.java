package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A ledger kept in memory for core tests: it hands {@link LedgerCore} the state a store would read and
 * applies the change sets it returns, so rules are tested in milliseconds without a database.
 */
final class InMemoryLedger {
    private final Map<String, AccountState> accounts = new LinkedHashMap<>();
    private final Map<String, Grant> grants = new LinkedHashMap<>();
    private final Map<String, List<Allocation>> allocations = new HashMap<>();
    private final Map<String, Spending> spendings = new HashMap<>();
    private final Map<String, Reservation> reservations = new HashMap<>();
    private final Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords = new HashMap<>();
    private final List<LedgerLine> lines = new ArrayList<>();
    private final List<dev.pulseledger.events.NewEvent> events = new ArrayList<>();
    private final Map<String, PlanTerms> plans = new HashMap<>();
    private final Map<SlaPeriod.Key, SlaPeriod> slaPeriods = new HashMap<>();
    private final java.util.Set<String> revoked = new java.util.HashSet<>();
    private final Map<String, List<KeyBudget>> keyBudgets = new HashMap<>();
    private final Set<BudgetNotice> budgetNotices = new java.util.HashSet<>();
    /** What each key used in each budget window, as the rounds kept it (key_budget_use). */
    private final Map<String, Long> budgetUse = new HashMap<>();

    private int grantSequence;

    InMemoryLedger(PlanTerms... plans) {
        for (PlanTerms plan : plans) {
            this.plans.put(plan.planId(), plan);
        }
    }

    /** Gives a key its budgets, as an operator's PATCH does. */
    void setBudgets(String keyId, List<KeyBudget> budgets) {
        keyBudgets.put(keyId, List.copyOf(budgets));
    }

    /** Changes a plan's terms, as an operator's PUT does: accounts get them at their next renewal. */
    void updatePlan(PlanTerms plan) {
        plans.put(plan.planId(), plan);
    }

    /** Decides the commands as one batch at {@code now} and applies the result. */
    List<LedgerOutcome> apply(Instant now, List<LedgerCommand<?>> commands) {
        Decision decision = LedgerCore.decide(
                state(StateQuery.of(commands, false, now)),
                commands,
                now,
                () -> String.format("gr_%08d", ++grantSequence));
        ChangeSet changes = decision.changes();
        for (Account account : changes.newAccounts()) {
            accounts.put(
                    account.id(),
                    new AccountState(
                            account.id(),
                            0,
                            Optional.empty(),
                            plans.get(account.planId()),
                            now,
                            Optional.empty(),
                            0,
                            now,
                            Optional.empty(),
                            List.of(),
                            Set.of(),
                            Optional.empty()));
        }
        changes.balances()
                .forEach((id, balance) -> accounts.put(id, withBalance(accounts.get(id), balance, changes.at())));
        for (AccountPeriod period : changes.periods()) {
            AccountState a = accounts.get(period.accountId());
            accounts.put(
                    a.id(),
                    new AccountState(
                            a.id(),
                            a.balance(),
                            a.lowBalanceThreshold(),
                            plans.get(period.planId()),
                            period.anchor(),
                            period.period(),
                            period.periodGranted(),
                            period.dueAt(),
                            a.lastLineAt(),
                            List.of(),
                            a.pools(),
                            period.pendingChange()));
        }
        changes.accountPools().forEach((id, pools) -> accounts.put(id, withPools(accounts.get(id), pools)));
        changes.newGrants().forEach(g -> grants.put(g.id(), g));
        changes.changedGrants().forEach(g -> {
            if (!grants.containsKey(g.id())) {
                throw new AssertionError("A changed grant that was never written: " + g.id());
            }
            grants.put(g.id(), g);
        });
        for (Allocation allocation : changes.newAllocations()) {
            allocations
                    .computeIfAbsent(allocation.spendingId(), id -> new ArrayList<>())
                    .add(allocation);
        }
        for (Allocation allocation : changes.returnedAllocations()) {
            List<Allocation> list = allocations.get(allocation.spendingId());
            list.replaceAll(a -> a.grantId().equals(allocation.grantId()) ? allocation : a);
        }
        changes.newSpendings().forEach(s -> spendings.put(s.id(), s));
        changes.revertedSpendings().forEach(s -> spendings.put(s.id(), s));
        changes.newReservations().forEach(r -> reservations.put(r.id(), r));
        changes.endedReservations().forEach(r -> {
            if (reservations.put(r.id(), r) == null) {
                throw new AssertionError("An ended reservation that was never written: " + r.id());
            }
        });
        changes.idempotencyRecords()
                .forEach(r -> idempotencyRecords.put(new IdempotencyScope(r.accountId(), r.key()), r));
        changes.revocations().forEach(r -> revoked.add(r.grantId()));
        changes.slaPeriods().forEach(p -> {
            if (slaPeriods.putIfAbsent(p.key(), p) != null) {
                throw new IllegalStateException("A period measured twice: " + p.key());
            }
        });
        changes.budgetUse().forEach(w -> budgetUse.put(useKey(w), w.used()));
        changes.budgetNotices().forEach(n -> {
            if (!budgetNotices.add(n)) {
                throw new IllegalStateException("A budget notice twice: " + n);
            }
        });
        lines.addAll(changes.lines());
        events.addAll(changes.events());
        return decision.outcomes();
    }

    LedgerOutcome apply(Instant now, LedgerCommand<?> command) {
        return apply(now, List.of(command)).getFirst();
    }

    /** What a store reads: live grants, and the grants the named spendings drew from. */
    private LedgerState state(StateQuery query) {
        Map<String, List<Allocation>> named = new HashMap<>();
        Map<String, Spending> namedSpendings = new HashMap<>();
        for (String id : query.spendingIds()) {
            if (spendings.containsKey(id)) {
                namedSpendings.put(id, spendings.get(id));
                named.put(id, List.copyOf(allocations.getOrDefault(id, List.of())));
            }
        }
        Map<String, Reservation> namedReservations = new HashMap<>();
        Map<String, Instant> holdsDueAfter = new HashMap<>();
        query.reservationIds().stream()
                .filter(reservations::containsKey)
                .forEach(id -> namedReservations.put(id, reservations.get(id)));
        for (String id : query.accountIds()) {
            AccountState a = accounts.get(id);
            if (a == null || a.dueAt().isAfter(query.now())) {
                continue;
            }
            Instant next = Instant.MAX;
            for (Reservation r : reservations.values()) {
                if (!r.accountId().equals(id) || r.status() != ReservationStatus.HELD) {
                    continue;
                }
                if (r.expiresAt().isAfter(query.now())) {
                    next = r.expiresAt().isBefore(next) ? r.expiresAt() : next;
                } else {
                    namedReservations.put(r.id(), r);
                }
            }
            holdsDueAfter.put(id, next);
        }
        namedReservations.keySet().forEach(id -> named.put(id, List.copyOf(allocations.getOrDefault(id, List.of()))));
        Set<String> returnTargets = new java.util.HashSet<>();
        named.values().forEach(list -> list.forEach(a -> returnTargets.add(a.grantId())));
        returnTargets.addAll(query.grantIds());
        Map<String, AccountState> locked = new HashMap<>();
        for (String id : query.accountIds()) {
            AccountState a = accounts.get(id);
            if (a == null) {
                continue;
            }
            Instant periodStart = a.period().map(Period::start).orElse(query.now());
            // As the stores do for a plan change now: the allowance grants not expired or of this period too.
            Predicate<Grant> periodAllowance = g -> query.allowancesOf().contains(id)
                    && g.kind() == GrantKind.ALLOWANCE
                    && (!g.expiredBy(query.now())
                            || !g.periodStart().orElseThrow().isBefore(periodStart));
            Predicate<Grant> read = g -> g.accountId().equals(id)
                    && (g.remaining() > 0 || returnTargets.contains(g.id()) || periodAllowance.test(g));
            List<Grant> theirs = grants.values().stream().filter(read).toList();
            locked.put(
                    id,
                    new AccountState(
                            id,
                            a.balance(),
                            a.lowBalanceThreshold(),
                            plans.get(a.plan().planId()),
                            a.anchor(),
                            a.period(),
                            a.periodGranted(),
                            a.dueAt(),
                            a.lastLineAt(),
                            theirs,
                            a.pools(),
                            a.pendingChange()));
        }
        Map<IdempotencyScope, IdempotencyRecord> records = new HashMap<>();
        query.idempotencyScopes().stream()
                .filter(idempotencyRecords::containsKey)
                .forEach(scope -> records.put(scope, idempotencyRecords.get(scope)));
        return new LedgerState(
                locked,
                namedSpendings,
                named,
                records,
                Map.of(),
                planTerms(query),
                namedReservations,
                holdsDueAfter,
                query.slaPeriods().stream().filter(slaPeriods::containsKey).collect(Collectors.toSet()),
                query.grantIds().stream().filter(revoked::contains).collect(Collectors.toSet()),
                budgetWindows(query));
    }

    /**
     * As KeyBudgetRows reads them: every budget of the ledger's keys (one account's in these tests) in its
     * window at the query's time, with the use the rounds kept for that window and its notices.
     */
    private Map<String, List<BudgetWindow>> budgetWindows(StateQuery query) {
        Map<String, List<BudgetWindow>> windows = new HashMap<>();
        keyBudgets.forEach((keyId, budgets) -> {
            for (KeyBudget budget : budgets) {
                Instant start = budget.period().windowStart(query.now());
                BudgetWindow kept =
                        new BudgetWindow(keyId, budget, start, budget.period().windowEnd(start), 0, false, false);
                Predicate<BudgetNotice.Level> noted = level -> budgetNotices.contains(
                        new BudgetNotice(keyId, budget.pool(), budget.period().wire(), start, level));
                windows.computeIfAbsent(keyId, k -> new ArrayList<>())
                        .add(kept.using(
                                budgetUse.getOrDefault(useKey(kept), 0L),
                                noted.test(BudgetNotice.Level.WARNING),
                                noted.test(BudgetNotice.Level.EXHAUSTED)));
            }
        });
        return windows;
    }

    private static String useKey(BudgetWindow window) {
        return window.keyId() + " " + window.budget().pool() + " "
                + window.budget().period() + " " + window.start();
    }

    private Map<String, PlanTerms> planTerms(StateQuery query) {
        Map<String, PlanTerms> found = new HashMap<>();
        query.planIds().stream().filter(plans::containsKey).forEach(id -> found.put(id, plans.get(id)));
        query.accountIds().stream()
                .map(accounts::get)
                .filter(java.util.Objects::nonNull)
                .forEach(a -> a.pendingChange().ifPresent(c -> found.put(c.planId(), plans.get(c.planId()))));
        return found;
    }

    /** As the stores do: an account's balance changes with a new ledger line, whose time it keeps. */
    private static AccountState withBalance(AccountState a, long balance, Instant lineAt) {
        return new AccountState(
                a.id(),
                balance,
                a.lowBalanceThreshold(),
                a.plan(),
                a.anchor(),
                a.period(),
                a.periodGranted(),
                a.dueAt(),
                Optional.of(lineAt),
                a.grants(),
                a.pools(),
                a.pendingChange());
    }

    private static AccountState withPools(AccountState a, Set<String> pools) {
        return new AccountState(
                a.id(),
                a.balance(),
                a.lowBalanceThreshold(),
                a.plan(),
                a.anchor(),
                a.period(),
                a.periodGranted(),
                a.dueAt(),
                a.lastLineAt(),
                a.grants(),
                pools,
                a.pendingChange());
    }

    /** The balance of one pool: what its grants have left ({@code default}'s is kept on the account). */
    long balance(String accountId, String pool) {
        return grants(accountId).stream()
                .filter(g -> g.pool().equals(pool))
                .mapToLong(Grant::remaining)
                .sum();
    }

    AccountState account(String accountId) {
        return accounts.get(accountId);
    }

    long balance(String accountId) {
        return accounts.get(accountId).balance();
    }

    List<LedgerLine> lines(String accountId) {
        return lines.stream().filter(l -> l.accountId().equals(accountId)).toList();
    }

    List<dev.pulseledger.events.NewEvent> events() {
        return List.copyOf(events);
    }

    List<Grant> grants(String accountId) {
        return grants.values().stream()
                .filter(g -> g.accountId().equals(accountId))
                .toList();
    }

    List<Allocation> allocations(String spendingId) {
        return allocations.getOrDefault(spendingId, List.of());
    }

    List<Reservation> reservations(String accountId) {
        return reservations.values().stream()
                .filter(r -> r.accountId().equals(accountId))
                .toList();
    }

    List<Spending> spendings(String accountId) {
        return spendings.values().stream()
                .filter(s -> s.accountId().equals(accountId))
                .toList();
    }

    Set<String> accountIds() {
        return accounts.keySet();
    }

    static Account account(String id, String planId, long balance, Instant at) {
        return new Account(id, "Account " + id, planId, balance, AccountStatus.ACTIVE, at);
    }
}
