package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a batch has changed so far, in the order it changed it: the only mutable record of a batch's
 * writes, turned into one immutable {@link ChangeSet} at its end by {@link BatchState#changeSet()}.
 */
final class BatchChanges {
    final List<Account> newAccounts = new ArrayList<>();
    final Map<String, Long> balances = new LinkedHashMap<>();
    final Set<String> newGrantIds = new LinkedHashSet<>();
    final Set<String> changedGrantIds = new LinkedHashSet<>();
    /** Spendings and reservations that drew from grants in this batch. */
    final Set<String> allocating = new LinkedHashSet<>();
    /** Spendings and reservations that gave tokens back to grants in this batch. */
    final Set<String> returning = new LinkedHashSet<>();

    final Map<String, Spending> newSpendings = new LinkedHashMap<>();
    final Map<String, Spending> revertedEarlierSpendings = new LinkedHashMap<>();
    final Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords = new LinkedHashMap<>();
    final List<LedgerLine> lines = new ArrayList<>();
    final List<NewEvent> events = new ArrayList<>();
    final Set<String> newReservationIds = new LinkedHashSet<>();
    final Set<String> endedReservationIds = new LinkedHashSet<>();
    final Map<SlaPeriod.Key, SlaPeriod> slaPeriods = new LinkedHashMap<>();
    final Map<String, Revocation> revocations = new LinkedHashMap<>();
    final List<BudgetNotice> budgetNotices = new ArrayList<>();
    /** Each key budget window the batch counted in, as it leaves it, by key, pool and period. */
    final Map<String, BudgetWindow> budgetUse = new LinkedHashMap<>();
}
