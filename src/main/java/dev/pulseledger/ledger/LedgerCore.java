package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.ledger.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The rules of every balance change, free of SQL, HTTP and clocks: given the locked state of the
 * accounts a batch touches and its commands in queue order, it decides each command's outcome and
 * the one change set that the store then writes. Commands later in a batch see what earlier ones
 * decided.
 */
public final class LedgerCore {
    /** The most tokens one account may hold: far from overflow, far beyond any real use. */
    public static final long MAX_BALANCE = 1_000_000_000_000_000L;

    /** The reason on the credit line of an account's opening balance. */
    static final String OPENING_BALANCE = "opening balance";

    private LedgerCore() {}

    public static Decision decide(LedgerState state, List<LedgerCommand> commands, Instant now) {
        Batch batch = new Batch(state, now);
        List<LedgerOutcome> outcomes = new ArrayList<>(commands.size());
        for (LedgerCommand command : commands) {
            outcomes.add(
                    switch (command) {
                        case LedgerCommand.Spend spend -> batch.spend(spend);
                        case LedgerCommand.Revert revert -> batch.revert(revert);
                        case LedgerCommand.Credit credit -> batch.credit(credit);
                        case LedgerCommand.Open open -> batch.open(open);
                    });
        }
        return new Decision(outcomes, batch.changes());
    }

    /** The working state of one batch while its commands are decided. */
    private static final class Batch {
        private final LedgerState state;
        private final Instant now;
        private final Map<String, Long> balances = new HashMap<>();
        private final List<Account> newAccounts = new ArrayList<>();
        private final Map<String, Long> changedBalances = new LinkedHashMap<>();
        private final Map<String, Spending> newSpendings = new LinkedHashMap<>();
        private final Map<String, Spending> revertedEarlierSpendings = new LinkedHashMap<>();
        private final Map<IdempotencyScope, IdempotencyRecord> newIdempotencyRecords = new LinkedHashMap<>();
        private final List<LedgerLine> lines = new ArrayList<>();
        private final List<NewEvent> events = new ArrayList<>();

        Batch(LedgerState state, Instant now) {
            this.state = state;
            this.now = now;
            state.accounts().values().forEach(account -> balances.put(account.id(), account.balance()));
        }

        ChangeSet changes() {
            return new ChangeSet(
                    now,
                    newAccounts,
                    changedBalances,
                    List.copyOf(newSpendings.values()),
                    List.copyOf(revertedEarlierSpendings.values()),
                    lines,
                    List.copyOf(newIdempotencyRecords.values()),
                    events);
        }

        SpendResult spend(LedgerCommand.Spend command) {
            SpendRequest request = command.request();
            Long landedBalance = state.landedSpendBalances().get(command.spendingId());
            Spending landed = state.spendings().get(command.spendingId());
            if (landedBalance != null && landed != null && landed.accountId().equals(request.accountId())) {
                Spending first = new Spending(
                        landed.id(), landed.accountId(), landed.amount(), false, landed.createdAt(), Optional.empty());
                return new SpendResult.Spent(first, landedBalance, false);
            }
            Optional<IdempotencyScope> scope =
                    request.idempotencyKey().map(key -> new IdempotencyScope(request.accountId(), key));
            if (scope.isPresent()) {
                IdempotencyRecord earlier = newIdempotencyRecords.getOrDefault(
                        scope.get(), state.idempotencyRecords().get(scope.get()));
                if (earlier != null) {
                    return earlier.replay(request);
                }
            }
            long balance = balance(request.accountId());
            SpendResult result;
            if (balance >= request.amount()) {
                long after = balance - request.amount();
                setBalance(request.accountId(), after);
                noteLowBalance(request.accountId(), balance, after, command.spendingId());
                Spending spending = new Spending(
                        command.spendingId(), request.accountId(), request.amount(), false, now, Optional.empty());
                newSpendings.put(spending.id(), spending);
                lines.add(new LedgerLine(
                        spending.accountId(),
                        LedgerKind.SPEND,
                        -spending.amount(),
                        after,
                        Optional.of(spending.id()),
                        Optional.empty()));
                result = new SpendResult.Spent(spending, after, false);
            } else {
                result = new SpendResult.InsufficientBalance(balance, request.amount(), false);
            }
            scope.ifPresent(s -> newIdempotencyRecords.put(s, IdempotencyRecord.of(request, result, now)));
            return result;
        }

        /** Raises balance.low when this spend takes the balance from >= threshold to below it. */
        private void noteLowBalance(String accountId, long before, long after, String spendingId) {
            // The spend was decided on this account, so the state holds it.
            Objects.requireNonNull(state.accounts().get(accountId), accountId)
                    .lowBalanceThreshold()
                    .ifPresent(threshold -> {
                        if (before >= threshold && after < threshold) {
                            events.add(NewEvent.balanceLow(accountId, before, after, threshold, spendingId));
                        }
                    });
        }

        RevertResult revert(LedgerCommand.Revert command) {
            Spending spending = current(command.spendingId());
            if (spending == null || !spending.accountId().equals(command.accountId())) {
                return new RevertResult.NotFound();
            }
            if (spending.reverted()) {
                return new RevertResult.Reverted(spending, balance(command.accountId()));
            }
            Spending reverted = spending.revertedAt(now);
            long after = balance(command.accountId()) + spending.amount();
            setBalance(command.accountId(), after);
            if (newSpendings.containsKey(spending.id())) {
                newSpendings.put(spending.id(), reverted);
            } else {
                revertedEarlierSpendings.put(reverted.id(), reverted);
            }
            lines.add(new LedgerLine(
                    spending.accountId(),
                    LedgerKind.REVERT,
                    spending.amount(),
                    after,
                    Optional.of(spending.id()),
                    Optional.empty()));
            return new RevertResult.Reverted(reverted, after);
        }

        /** The spending as this batch left it, else as the store read it; null when neither knows it. */
        private @Nullable Spending current(String spendingId) {
            Spending decidedHere = newSpendings.getOrDefault(spendingId, revertedEarlierSpendings.get(spendingId));
            return decidedHere != null ? decidedHere : state.spendings().get(spendingId);
        }

        CreditResult credit(LedgerCommand.Credit command) {
            if (!balances.containsKey(command.accountId())) {
                return new CreditResult.AccountNotFound();
            }
            long balance = balance(command.accountId());
            if (balance > MAX_BALANCE - command.amount()) {
                return new CreditResult.BalanceLimitReached();
            }
            return new CreditResult.Credited(addCredit(command.accountId(), command.amount(), command.reason()), now);
        }

        OpenResult open(LedgerCommand.Open command) {
            Account account = command.account();
            if (!state.planIds().contains(account.planId())) {
                return new OpenResult.UnknownPlan();
            }
            if (balances.containsKey(account.id()) || account.balance() < 0 || account.balance() > MAX_BALANCE) {
                throw new IllegalArgumentException("Cannot open account " + account.id());
            }
            Account opened = new Account(account.id(), account.name(), account.planId(), 0, account.status(), now);
            newAccounts.add(opened);
            balances.put(opened.id(), 0L);
            if (account.balance() > 0) {
                addCredit(opened.id(), account.balance(), OPENING_BALANCE);
            }
            return new OpenResult.Opened(
                    new Account(opened.id(), opened.name(), opened.planId(), account.balance(), opened.status(), now));
        }

        private long addCredit(String accountId, long amount, String reason) {
            long after = balance(accountId) + amount;
            setBalance(accountId, after);
            lines.add(
                    new LedgerLine(accountId, LedgerKind.CREDIT, amount, after, Optional.empty(), Optional.of(reason)));
            return after;
        }

        private long balance(String accountId) {
            Long balance = balances.get(accountId);
            if (balance == null) {
                throw new IllegalStateException("Account vanished while deciding a batch: " + accountId);
            }
            return balance;
        }

        private void setBalance(String accountId, long balance) {
            if (balance < 0) {
                throw new IllegalStateException("A balance would go negative: " + accountId);
            }
            balances.put(accountId, balance);
            changedBalances.put(accountId, balance);
        }
    }
}
