package dev.pulseledger.ledger;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What {@link LedgerCore} needs to decide a batch, as the store read it with the batch's accounts
 * locked: the accounts, the spendings the batch names, and the idempotency records of its keys.
 *
 * @param accounts the locked accounts by id; an id the batch names but the database lacks is absent
 * @param spendings the spendings the batch names, by id, whichever account they belong to
 * @param idempotencyRecords the stored first outcomes of the batch's idempotency keys
 * @param landedSpendBalances on a retry, the balance right after each spend of the batch that had
 *     already committed, by spending id
 * @param planIds the plans the batch names that exist
 */
public record LedgerState(
        Map<String, AccountState> accounts,
        Map<String, Spending> spendings,
        Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords,
        Map<String, Long> landedSpendBalances,
        Set<String> planIds) {

    public LedgerState {
        accounts = Map.copyOf(accounts);
        spendings = Map.copyOf(spendings);
        idempotencyRecords = Map.copyOf(idempotencyRecords);
        landedSpendBalances = Map.copyOf(landedSpendBalances);
        planIds = Set.copyOf(planIds);
    }

    /** One locked account: its balance and its effective low-balance threshold (its own, else its plan's). */
    public record AccountState(String id, long balance, Optional<Long> lowBalanceThreshold) {}

    /** An idempotency key is scoped to its account. */
    public record IdempotencyScope(String accountId, String key) {}
}
