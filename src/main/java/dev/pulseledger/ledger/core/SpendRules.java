package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.util.Optional;

/** Spends and reverts (CONTRACT §3, §6): once per idempotency key, never below zero, never more back than taken. */
final class SpendRules {
    private final BatchState batch;
    private final GrantRules grants;
    private final PeriodRules periods;
    private final KeyBudgetRules budgets;

    SpendRules(BatchState batch, GrantRules grants, PeriodRules periods, KeyBudgetRules budgets) {
        this.batch = batch;
        this.grants = grants;
        this.periods = periods;
        this.budgets = budgets;
    }

    SpendResult spend(LedgerCommand.Spend command) {
        SpendRequest request = command.request();
        Long landedBalance = batch.read.landedSpendBalances().get(command.spendingId());
        Spending landed = batch.read.spendings().get(command.spendingId());
        if (landedBalance != null && landed != null && landed.accountId().equals(request.accountId())) {
            Spending first = new Spending(
                    landed.id(),
                    landed.accountId(),
                    landed.pool(),
                    landed.amount(),
                    0,
                    landed.createdAt(),
                    Optional.empty(),
                    landed.charge());
            return new SpendResult.Spent(first, landedBalance, false);
        }
        Optional<IdempotencyScope> scope =
                request.idempotencyKey().map(key -> new IdempotencyScope(request.accountId(), key));
        if (scope.isPresent()) {
            IdempotencyRecord earlier = batch.idempotencyRecord(scope.get());
            if (earlier != null) {
                return earlier.replay(request);
            }
        }
        WorkingAccount account = periods.upToDate(request.accountId());
        String pool = request.pool();
        if (!account.has(pool)) {
            return new SpendResult.PoolNotFound(pool);
        }
        Optional<BudgetWindow> over = budgets.exceeded(request.keyId(), pool, request.amount());
        if (over.isPresent()) {
            return new SpendResult.KeyBudgetExceeded(over.get());
        }
        long before = account.balance(pool);
        SpendResult result;
        if (before >= request.amount()) {
            grants.draw(account, pool, command.spendingId(), request.amount());
            long after = batch.addToBalance(account, pool, -request.amount());
            if (pool.equals(Pools.DEFAULT)) {
                noteLowBalance(account, before, after, command.spendingId());
            }
            Optional<KeyCharge> charge = request.keyId().map(keyId -> new KeyCharge(keyId, batch.now));
            Spending spending = new Spending(
                    command.spendingId(),
                    request.accountId(),
                    pool,
                    request.amount(),
                    0,
                    batch.now,
                    Optional.empty(),
                    charge);
            batch.putSpending(spending);
            budgets.count(account.id, charge, pool, request.amount());
            batch.line(
                    account, pool, LedgerKind.SPEND, -spending.amount(), Optional.of(spending.id()), Optional.empty());
            result = new SpendResult.Spent(spending, after, false);
        } else {
            result = new SpendResult.InsufficientBalance(before, request.amount(), false);
        }
        scope.ifPresent(s -> batch.changes.idempotencyRecords.put(s, IdempotencyRecord.of(request, result, batch.now)));
        return result;
    }

    /** Raises balance.low when this spend takes the balance from >= threshold to below it. */
    private void noteLowBalance(WorkingAccount account, long before, long after, String spendingId) {
        account.lowBalanceThreshold.ifPresent(threshold -> {
            if (before >= threshold && after < threshold) {
                batch.changes.events.add(NewEvent.balanceLow(account.id, before, after, threshold, spendingId));
            }
        });
    }

    RevertResult revert(LedgerCommand.Revert command) {
        Spending spending = batch.spending(command.spendingId());
        if (spending == null || !spending.accountId().equals(command.accountId())) {
            return new RevertResult.NotFound();
        }
        Optional<IdempotencyScope> scope =
                command.idempotencyKey().map(key -> new IdempotencyScope(command.accountId(), key));
        if (scope.isPresent()) {
            IdempotencyRecord earlier = batch.idempotencyRecord(scope.get());
            if (earlier != null) {
                return earlier.replay(command, spending);
            }
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        long tokens = command.amount().orElse(spending.unreverted());
        if (tokens > spending.unreverted()) {
            return new RevertResult.AmountExceedsUnreverted(spending.unreverted());
        }
        String pool = spending.pool();
        if (tokens == 0) {
            return new RevertResult.Reverted(spending, account.balance(pool), false);
        }
        Spending reverted = spending.reverting(tokens, batch.now);
        batch.putSpending(reverted);
        batch.addToBalance(account, pool, tokens);
        batch.line(account, pool, LedgerKind.REVERT, tokens, Optional.of(spending.id()), Optional.empty());
        grants.giveBack(account, spending.id(), tokens);
        budgets.count(account.id, spending.charge(), pool, -tokens);
        RevertResult.Reverted result = new RevertResult.Reverted(reverted, account.balance(pool), false);
        scope.ifPresent(s -> batch.changes.idempotencyRecords.put(s, IdempotencyRecord.of(command, result, batch.now)));
        return result;
    }
}
