package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PoolAllowance;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.NewEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Periods and renewals (CONTRACT §7): before an account's first command in a batch it is brought up to
 * date once (due holds expire, an ended period renews with its rollover, due grants expire); a plan change
 * starts a new period at once.
 */
final class PeriodRules {
    static final String RENEWAL = "renewal";
    static final String PLAN_CHANGE = "plan_change";

    private final BatchState batch;
    private final GrantRules grants;
    private final HoldRules holds;

    PeriodRules(BatchState batch, GrantRules grants, HoldRules holds) {
        this.batch = batch;
        this.grants = grants;
        this.holds = holds;
    }

    /** The account, brought up to date once per batch. */
    WorkingAccount upToDate(String accountId) {
        WorkingAccount account = batch.accounts.get(accountId);
        if (account == null) {
            throw new IllegalStateException("Account vanished while deciding a batch: " + accountId);
        }
        if (batch.upToDate.add(accountId)) {
            catchUp(account);
        }
        return account;
    }

    TouchResult touch(LedgerCommand.Touch command) {
        if (!batch.accounts.containsKey(command.accountId())) {
            return new TouchResult.AccountNotFound();
        }
        return new TouchResult.Touched(upToDate(command.accountId()).balance);
    }

    PlanChangeResult changePlan(LedgerCommand.ChangePlan command) {
        WorkingAccount account = batch.accounts.get(command.accountId());
        if (account == null) {
            return new PlanChangeResult.AccountNotFound();
        }
        PlanTerms plan = batch.read.plans().get(command.planId());
        if (plan == null) {
            return new PlanChangeResult.UnknownPlan();
        }
        if (batch.upToDate.add(account.id)) {
            grants.expireDue(account); // the old period ends now: no renewal of it first
        }
        if (plan.planId().equals(account.plan.planId())) {
            catchUp(account);
            return new PlanChangeResult.Changed(account.period.orElseThrow());
        }
        long expired = 0;
        for (Grant grant : grants.live(account, null, GrantKind.ALLOWANCE)) {
            expired += grants.expire(account, grant, grant.remaining());
        }
        account.plan = plan;
        account.planChanged = true;
        account.anchor = batch.now;
        long granted = startPeriod(account);
        Period period = account.period.orElseThrow();
        batch.changes.events.add(NewEvent.allowanceRenewed(
                account.id,
                plan.planId(),
                PLAN_CHANGE,
                period.start(),
                period.end(),
                granted,
                0,
                expired,
                account.balance));
        return new PlanChangeResult.Changed(period);
    }

    private void catchUp(WorkingAccount account) {
        if (account.dueAt.isAfter(batch.now)) {
            return;
        }
        holds.expireDue(account);
        if (account.period.isEmpty() || !account.period.get().end().isAfter(batch.now)) {
            renew(account);
        }
        grants.expireDue(account);
        account.dueAt = nextDue(account);
        account.periodChanged = true;
    }

    /**
     * Ends the last period: in each pool, unused allowance above the pool's rollover expires (all of it in a
     * pool the plan no longer has), what rolls over lasts until the new period's end, and the allowance of
     * the period containing now is granted.
     */
    private void renew(WorkingAccount account) {
        Period next = Period.containing(account.anchor, account.plan.period(), batch.now);
        Map<String, List<Grant>> unusedByPool = grants.live(account, null, GrantKind.ALLOWANCE).stream()
                .filter(g -> g.expiredBy(batch.now))
                .collect(Collectors.groupingBy(Grant::pool, TreeMap::new, Collectors.toList()));
        long rolledOver = 0;
        long expired = 0;
        for (Map.Entry<String, List<Grant>> pool : unusedByPool.entrySet()) {
            long kept = rollOver(account, pool.getValue(), rollover(account.plan, pool.getKey()), next);
            rolledOver += kept;
            expired += pool.getValue().stream().mapToLong(Grant::remaining).sum() - kept;
        }
        long granted = grantAllowance(account, next);
        if (granted > 0 || expired > 0) {
            batch.changes.events.add(NewEvent.allowanceRenewed(
                    account.id,
                    account.plan.planId(),
                    RENEWAL,
                    next.start(),
                    next.end(),
                    granted,
                    rolledOver,
                    expired,
                    account.balance));
        }
    }

    /** Expires the pool's unused allowance above {@code rollover}; the rest lasts until {@code next} ends. */
    private long rollOver(WorkingAccount account, List<Grant> unused, long rollover, Period next) {
        long total = unused.stream().mapToLong(Grant::remaining).sum();
        long toExpire = total - Math.min(total, rollover);
        long expired = 0;
        for (Grant grant : unused) {
            long tokens = Math.min(toExpire - expired, grant.remaining());
            expired += grants.expire(account, grant, tokens);
            // The grant came from the batch's grants (live), and expiring only replaces it.
            Grant left = Objects.requireNonNull(batch.grants.get(grant.id()), grant.id());
            if (left.remaining() > 0) {
                batch.putGrant(left.expiringAt(next.end()));
            }
        }
        return total - expired;
    }

    private static long rollover(PlanTerms plan, String pool) {
        if (pool.equals(Pools.DEFAULT)) {
            return plan.rollover();
        }
        PoolAllowance terms = plan.pools().get(pool);
        return terms == null ? 0 : terms.rollover();
    }

    /** Starts a period at the account's anchor (opening, plan change) and grants its allowance. */
    long startPeriod(WorkingAccount account) {
        Period first = Period.containing(account.anchor, account.plan.period(), batch.now);
        long granted = grantAllowance(account, first);
        account.dueAt = nextDue(account);
        account.periodChanged = true;
        return granted;
    }

    private long grantAllowance(WorkingAccount account, Period period) {
        account.period = Optional.of(period);
        account.periodGranted = account.plan.allowance();
        account.periodChanged = true;
        if (account.plan.allowance() > 0) {
            grants.grant(
                    account,
                    GrantKind.ALLOWANCE,
                    account.plan.allowance(),
                    Optional.of(period.end()),
                    Optional.of(period.start()),
                    null);
        }
        account.plan.pools().forEach((pool, terms) -> {
            account.notePool(pool);
            if (terms.allowance() > 0) {
                grants.grant(
                        account,
                        pool,
                        GrantKind.ALLOWANCE,
                        terms.allowance(),
                        Optional.of(period.end()),
                        Optional.of(period.start()),
                        null);
            }
        });
        return account.plan.allowance();
    }

    /**
     * When the account next needs the core: its period's end, its soonest live grant's expiry, or its
     * soonest held reservation's expiry.
     */
    private Instant nextDue(WorkingAccount account) {
        Instant due = account.period.map(Period::end).orElse(batch.now);
        if (account.unreadHoldsFrom.isBefore(due)) {
            due = account.unreadHoldsFrom;
        }
        for (Reservation reservation : batch.reservations.values()) {
            if (reservation.accountId().equals(account.id)
                    && reservation.status() == ReservationStatus.HELD
                    && reservation.expiresAt().isBefore(due)) {
                due = reservation.expiresAt();
            }
        }
        for (Grant grant : grants.live(account, null, null)) {
            if (grant.expiresAt().isPresent() && grant.expiresAt().get().isBefore(due)) {
                due = grant.expiresAt().get();
            }
        }
        return due;
    }
}
