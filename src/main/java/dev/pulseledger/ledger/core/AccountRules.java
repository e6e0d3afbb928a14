package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.Pools;
import java.util.Optional;

/** Opening accounts and operators' credits (CONTRACT §6, §7): new tokens come only as grants. */
final class AccountRules {
    /** The reason on the credit line of an account's opening balance. */
    static final String OPENING_BALANCE = "opening balance";

    private final BatchState batch;
    private final GrantRules grants;
    private final PeriodRules periods;

    AccountRules(BatchState batch, GrantRules grants, PeriodRules periods) {
        this.batch = batch;
        this.grants = grants;
        this.periods = periods;
    }

    CreditResult credit(LedgerCommand.Credit command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new CreditResult.AccountNotFound();
        }
        if (command.expiresAt().isPresent() && !command.expiresAt().get().isAfter(batch.now)) {
            return new CreditResult.ExpiryNotInFuture();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        String pool = command.pool();
        if (!account.has(pool) && account.poolCountWith(pool) > Pools.MAX_PER_ACCOUNT) {
            return new CreditResult.PoolLimitReached(Pools.MAX_PER_ACCOUNT);
        }
        if (account.balance(pool) > LedgerCore.MAX_BALANCE - command.amount()) {
            return new CreditResult.BalanceLimitReached();
        }
        grants.grant(
                account,
                pool,
                GrantKind.CREDIT,
                command.amount(),
                command.expiresAt(),
                Optional.empty(),
                command.reason());
        return new CreditResult.Credited(account.balance(pool), batch.now);
    }

    OpenResult open(LedgerCommand.Open command) {
        Account account = command.account();
        PlanTerms plan = batch.read.plans().get(account.planId());
        if (plan == null) {
            return new OpenResult.UnknownPlan();
        }
        if (batch.accounts.containsKey(account.id())
                || account.balance() < 0
                || account.balance() > LedgerCore.MAX_BALANCE) {
            throw new IllegalArgumentException("Cannot open account " + account.id());
        }
        batch.changes.newAccounts.add(
                new Account(account.id(), account.name(), plan.planId(), 0, account.status(), batch.now));
        WorkingAccount opened = new WorkingAccount(account.id(), plan, batch.now);
        batch.accounts.put(opened.id, opened);
        batch.upToDate.add(opened.id);
        periods.startPeriod(opened);
        if (account.balance() > 0) {
            grants.grant(
                    opened, GrantKind.CREDIT, account.balance(), Optional.empty(), Optional.empty(), OPENING_BALANCE);
        }
        return new OpenResult.Opened(new Account(
                account.id(),
                account.name(),
                plan.planId(),
                opened.balance,
                account.status(),
                batch.now,
                opened.period,
                opened.dueAt,
                Optional.empty()));
    }
}
