package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.events.NewEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything one decided batch changes, for a store to write in the batch's transaction.
 *
 * @param at when the batch was decided: the time of every row it writes
 * @param newAccounts accounts the batch opened, to insert (with a zero balance) before anything that
 *     refers to them
 * @param balances the new balance of each account that changed, which is each account with a new ledger
 *     line: the store keeps the time of an account's newest line with its balance
 * @param periods the new plan and period state of each account whose plan, period or due time changed
 * @param newGrants grants created by the batch, as they stand at its end
 * @param changedGrants grants of earlier batches, as the batch left them
 * @param newAllocations what the batch's spendings drew from each grant
 * @param returnedAllocations allocations of earlier spendings that the batch's reverts returned
 * @param newSpendings spendings made by the batch, in queue order, as they stand at its end (a
 *     spending reverted later in the same batch is already reverted here)
 * @param revertedSpendings spendings of earlier batches that this batch reverted
 * @param lines the ledger lines, in queue order
 * @param idempotencyRecords the first outcomes of the batch's new idempotency keys
 * @param events the events the batch raises
 * @param newReservations reservations made by the batch, as they stand at its end
 * @param endedReservations reservations of earlier batches that this batch ended
 * @param slaPeriods the SLA periods the batch measured, credited or not
 * @param revocations the grants the batch revoked
 * @param accountPools the named pools of each account that got a new one, all of them
 * @param budgetNotices the key budget windows that reached a level, each raising its event
 * @param budgetUse the key budget windows the batch counted in, each with what its key has used in it now
 */
public record ChangeSet(
        Instant at,
        List<Account> newAccounts,
        Map<String, Long> balances,
        List<AccountPeriod> periods,
        List<Grant> newGrants,
        List<Grant> changedGrants,
        List<Allocation> newAllocations,
        List<Allocation> returnedAllocations,
        List<Spending> newSpendings,
        List<Spending> revertedSpendings,
        List<LedgerLine> lines,
        List<IdempotencyRecord> idempotencyRecords,
        List<NewEvent> events,
        List<Reservation> newReservations,
        List<Reservation> endedReservations,
        Map<String, Set<String>> accountPools,
        List<SlaPeriod> slaPeriods,
        List<Revocation> revocations,
        List<BudgetNotice> budgetNotices,
        List<BudgetWindow> budgetUse) {

    public ChangeSet {
        budgetNotices = List.copyOf(budgetNotices);
        budgetUse = List.copyOf(budgetUse);
        newAccounts = List.copyOf(newAccounts);
        balances = Map.copyOf(balances);
        periods = List.copyOf(periods);
        newGrants = List.copyOf(newGrants);
        changedGrants = List.copyOf(changedGrants);
        newAllocations = List.copyOf(newAllocations);
        returnedAllocations = List.copyOf(returnedAllocations);
        newSpendings = List.copyOf(newSpendings);
        revertedSpendings = List.copyOf(revertedSpendings);
        lines = List.copyOf(lines);
        idempotencyRecords = List.copyOf(idempotencyRecords);
        events = List.copyOf(events);
        newReservations = List.copyOf(newReservations);
        endedReservations = List.copyOf(endedReservations);
        accountPools = Map.copyOf(accountPools);
        slaPeriods = List.copyOf(slaPeriods);
        revocations = List.copyOf(revocations);
    }

    /**
     * An account's plan and period state after the batch; {@code planChanged} when it moved to {@code planId};
     * {@code pendingChange} the plan change that waits for its period's end, if any.
     */
    public record AccountPeriod(
            String accountId,
            String planId,
            boolean planChanged,
            Instant anchor,
            Optional<Period> period,
            long periodGranted,
            Instant dueAt,
            Optional<PendingPlanChange> pendingChange) {}
}
