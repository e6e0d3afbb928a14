package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.events.NewEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one decided batch changes, for a store to write in the batch's transaction.
 *
 * @param at when the batch was decided: the time of every row it writes
 * @param newAccounts accounts the batch opened, to insert before anything that refers to them
 * @param balances the new balance of each account that changed
 * @param newSpendings spendings made by the batch, in queue order, as they stand at its end (a
 *     spending reverted later in the same batch is already reverted here)
 * @param revertedSpendings spendings of earlier batches that this batch reverted
 * @param lines the ledger lines, in queue order
 * @param idempotencyRecords the first outcomes of the batch's new idempotency keys
 * @param events the events the batch raises
 */
public record ChangeSet(
        Instant at,
        List<Account> newAccounts,
        Map<String, Long> balances,
        List<Spending> newSpendings,
        List<Spending> revertedSpendings,
        List<LedgerLine> lines,
        List<IdempotencyRecord> idempotencyRecords,
        List<NewEvent> events) {

    public ChangeSet {
        newAccounts = List.copyOf(newAccounts);
        balances = Map.copyOf(balances);
        newSpendings = List.copyOf(newSpendings);
        revertedSpendings = List.copyOf(revertedSpendings);
        lines = List.copyOf(lines);
        idempotencyRecords = List.copyOf(idempotencyRecords);
        events = List.copyOf(events);
    }
}
