package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.ledger.LedgerState.AccountState;
import dev.pulseledger.ledger.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A ledger kept in memory for core tests: it hands {@link LedgerCore} the state a store would read and
 * applies the change sets it returns, so rules are tested in milliseconds without a database.
 */
final class InMemoryLedger {
    private final Map<String, Long> balances = new HashMap<>();
    private final Map<String, Spending> spendings = new HashMap<>();
    private final Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords = new HashMap<>();
    private final List<LedgerLine> lines = new ArrayList<>();
    private final Set<String> planIds;

    InMemoryLedger(Set<String> planIds) {
        this.planIds = Set.copyOf(planIds);
    }

    /** Decides the commands as one batch at {@code now} and applies the result. */
    List<LedgerOutcome> apply(Instant now, List<LedgerCommand> commands) {
        Decision decision = LedgerCore.decide(state(StateQuery.of(commands, false)), commands, now);
        ChangeSet changes = decision.changes();
        changes.newAccounts().forEach(account -> balances.put(account.id(), 0L));
        balances.putAll(changes.balances());
        changes.newSpendings().forEach(s -> spendings.put(s.id(), s));
        changes.revertedSpendings().forEach(s -> spendings.put(s.id(), s));
        changes.idempotencyRecords()
                .forEach(r -> idempotencyRecords.put(new IdempotencyScope(r.accountId(), r.key()), r));
        lines.addAll(changes.lines());
        return decision.outcomes();
    }

    LedgerOutcome apply(Instant now, LedgerCommand command) {
        return apply(now, List.of(command)).getFirst();
    }

    private LedgerState state(StateQuery query) {
        Map<String, AccountState> accounts = new HashMap<>();
        query.accountIds().stream()
                .filter(balances::containsKey)
                .forEach(id -> accounts.put(id, new AccountState(id, balances.get(id), Optional.empty())));
        Map<String, Spending> named = new HashMap<>();
        query.spendingIds().stream().filter(spendings::containsKey).forEach(id -> named.put(id, spendings.get(id)));
        Map<IdempotencyScope, IdempotencyRecord> records = new HashMap<>();
        query.idempotencyScopes().stream()
                .filter(idempotencyRecords::containsKey)
                .forEach(scope -> records.put(scope, idempotencyRecords.get(scope)));
        return new LedgerState(accounts, named, records, Map.of(), planIds);
    }

    long balance(String accountId) {
        return balances.get(accountId);
    }

    List<LedgerLine> lines(String accountId) {
        return lines.stream().filter(l -> l.accountId().equals(accountId)).toList();
    }

    List<Spending> spendings(String accountId) {
        return spendings.values().stream()
                .filter(s -> s.accountId().equals(accountId))
                .toList();
    }

    Set<String> accountIds() {
        return balances.keySet();
    }

    static Account account(String id, long balance, Instant at) {
        return new Account(id, "Account " + id, "free", balance, dev.pulseledger.accounts.AccountStatus.ACTIVE, at);
    }
}
