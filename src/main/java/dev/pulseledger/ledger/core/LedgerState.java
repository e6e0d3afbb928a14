package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link LedgerCore} needs to decide a batch, as the store read it with the batch's accounts
 * locked: the accounts with their grants, the spendings the batch names with what they drew from each
 * grant, the idempotency records of its keys, and the plans it moves accounts to.
 *
 * @param accounts the locked accounts by id; an id the batch names but the database lacks is absent
 * @param spendings the spendings the batch names, by id, whichever account they belong to
 * @param allocations what each of those spendings drew from each grant, by spending id
 * @param idempotencyRecords the stored first outcomes of the batch's idempotency keys
 * @param landedSpendBalances on a retry, the balance right after each spend of the batch that had
 *     already committed, by spending id
 * @param plans the plans the batch opens accounts on or moves accounts to, by id, those that exist
 * @param reservations the reservations the batch names, and the held ones of due accounts whose expiry
 *     has come, by id; their draws from grants are in {@code allocations} under their ids
 * @param holdsDueAfter for each due account, when the first of its held reservations that are not in
 *     {@code reservations} expires ({@link Instant#MAX} when none); an account absent here was not due
 * @param measuredSlaPeriods those of the batch's SLA periods that were measured already
 * @param revokedGrants those of the batch's grants to revoke that were revoked already; the grants
 *     themselves are with their accounts' grants
 * @param keyBudgets the budgets of the batch's accounts' keys, each in its current window with its key's use,
 *     by key id; a key without budgets is absent
 */
public record LedgerState(
        Map<String, AccountState> accounts,
        Map<String, Spending> spendings,
        Map<String, List<Allocation>> allocations,
        Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords,
        Map<String, Long> landedSpendBalances,
        Map<String, PlanTerms> plans,
        Map<String, Reservation> reservations,
        Map<String, Instant> holdsDueAfter,
        Set<SlaPeriod.Key> measuredSlaPeriods,
        Set<String> revokedGrants,
        Map<String, List<BudgetWindow>> keyBudgets) {

    public LedgerState {
        keyBudgets = Map.copyOf(keyBudgets);
        revokedGrants = Set.copyOf(revokedGrants);
        measuredSlaPeriods = Set.copyOf(measuredSlaPeriods);
        accounts = Map.copyOf(accounts);
        spendings = Map.copyOf(spendings);
        allocations = Map.copyOf(allocations);
        idempotencyRecords = Map.copyOf(idempotencyRecords);
        landedSpendBalances = Map.copyOf(landedSpendBalances);
        plans = Map.copyOf(plans);
        reservations = Map.copyOf(reservations);
        holdsDueAfter = Map.copyOf(holdsDueAfter);
    }

    /**
     * One locked account.
     *
     * @param lowBalanceThreshold its effective low-balance threshold: its own, else its plan's
     * @param anchor where its periods count from
     * @param period the period renewed last; empty before the first
     * @param periodGranted the allowance that period granted
     * @param dueAt when the account next needs a renewal or an expiry
     * @param lastLineAt when its newest ledger line was written; empty before the first (or, for an
     *     account older than V181, unknown)
     * @param grants its grants with tokens left, and any other grant the batch's reverts return to
     * @param pools the named pools it has (CONTRACT §14); {@code default} is not listed
     * @param pendingChange the plan change that waits for its period's end (CONTRACT §13), if any
     */
    public record AccountState(
            String id,
            long balance,
            Optional<Long> lowBalanceThreshold,
            PlanTerms plan,
            Instant anchor,
            Optional<Period> period,
            long periodGranted,
            Instant dueAt,
            Optional<Instant> lastLineAt,
            List<Grant> grants,
            Set<String> pools,
            Optional<PendingPlanChange> pendingChange) {
        public AccountState {
            grants = List.copyOf(grants);
            pools = Set.copyOf(pools);
        }

        /** The same account with {@code grants} instead of its own. */
        public AccountState withGrants(List<Grant> grants) {
            return new AccountState(
                    id,
                    balance,
                    lowBalanceThreshold,
                    plan,
                    anchor,
                    period,
                    periodGranted,
                    dueAt,
                    lastLineAt,
                    grants,
                    pools,
                    pendingChange);
        }
    }

    /** An idempotency key is scoped to its account. */
    public record IdempotencyScope(String accountId, String key) {}
}
