package dev.pulseledger.ledger.core;

import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * What a store must lock and read before {@link LedgerCore} decides a batch.
 *
 * @param accountIds the accounts to lock, sorted so that every round takes its locks in one order; their keys'
 *     budgets are read too, each with its use in its window at {@code now}
 * @param spendingIds the spendings to read: revert targets and, on a retry, the batch's own spends
 * @param idempotencyScopes the idempotency records to read
 * @param landedSpends true on a retry: read the balance after each of the batch's spends that landed
 * @param planIds the plans the batch opens accounts on or moves accounts to
 * @param reservationIds the reservations the batch settles or releases and, on a retry, makes
 * @param now the time the batch is decided at: the held reservations of accounts due by then are read
 * @param slaPeriods the SLA periods the batch measures: whether each was measured already is read
 * @param grantIds the grants the batch revokes: each is read (with tokens left or not), and whether it was revoked
 * @param allowancesOf the accounts that change plan now (a new period, or within the period): every allowance
 *     grant of theirs that has not expired or started in their current period is read, spent ones too
 */
public record StateQuery(
        SortedSet<String> accountIds,
        Set<String> spendingIds,
        Set<IdempotencyScope> idempotencyScopes,
        boolean landedSpends,
        Set<String> planIds,
        Set<String> reservationIds,
        Instant now,
        Set<SlaPeriod.Key> slaPeriods,
        Set<String> grantIds,
        Set<String> allowancesOf) {

    /**
     * What must be read to decide {@code commands}.
     *
     * @param retry true when an earlier attempt of these commands may have committed
     */
    public static StateQuery of(List<? extends LedgerCommand<?>> commands, boolean retry, Instant now) {
        SortedSet<String> accountIds = new TreeSet<>();
        Set<String> spendingIds = new LinkedHashSet<>();
        Set<IdempotencyScope> scopes = new LinkedHashSet<>();
        Set<String> planIds = new LinkedHashSet<>();
        Set<String> reservationIds = new LinkedHashSet<>();
        Set<SlaPeriod.Key> slaPeriods = new LinkedHashSet<>();
        Set<String> grantIds = new LinkedHashSet<>();
        Set<String> allowancesOf = new LinkedHashSet<>();
        for (LedgerCommand<?> command : commands) {
            accountIds.add(command.accountId());
            switch (command) {
                case LedgerCommand.Spend spend -> {
                    spend.request()
                            .idempotencyKey()
                            .ifPresent(key -> scopes.add(new IdempotencyScope(spend.accountId(), key)));
                    if (retry) {
                        spendingIds.add(spend.spendingId());
                    }
                }
                case LedgerCommand.Revert revert -> {
                    spendingIds.add(revert.spendingId());
                    revert.idempotencyKey().ifPresent(key -> scopes.add(new IdempotencyScope(revert.accountId(), key)));
                }
                case LedgerCommand.Reserve reserve -> {
                    reserve.idempotencyKey()
                            .ifPresent(key -> scopes.add(new IdempotencyScope(reserve.accountId(), key)));
                    if (retry) {
                        reservationIds.add(reserve.reservationId());
                    }
                }
                case LedgerCommand.Settle settle -> reservationIds.add(settle.reservationId());
                case LedgerCommand.Release release -> reservationIds.add(release.reservationId());
                case LedgerCommand.Open open -> planIds.add(open.account().planId());
                case LedgerCommand.ChangePlan change -> {
                    planIds.add(change.planId());
                    allowancesOf.add(change.accountId());
                }
                case LedgerCommand.ChangePlanInPeriod change -> {
                    planIds.add(change.planId());
                    if (change.when() == PlanChangeTiming.NOW) {
                        allowancesOf.add(change.accountId());
                    }
                }
                case LedgerCommand.CancelPlanChange cancel -> {}
                case LedgerCommand.Credit credit -> {}
                case LedgerCommand.Touch touch -> {}
                case LedgerCommand.RevokeGrant revoke -> grantIds.add(revoke.grantId());
                case LedgerCommand.SlaCredit sla ->
                    slaPeriods.add(new SlaPeriod.Key(
                            sla.accountId(), sla.measurement().period().start()));
            }
        }
        boolean landedSpends = retry && commands.stream().anyMatch(LedgerCommand.Spend.class::isInstance);
        return new StateQuery(
                accountIds,
                spendingIds,
                scopes,
                landedSpends,
                planIds,
                reservationIds,
                now,
                slaPeriods,
                grantIds,
                allowancesOf);
    }
}
