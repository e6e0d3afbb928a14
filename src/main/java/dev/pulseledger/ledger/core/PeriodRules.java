package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PoolAllowance;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.NewEvent;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * Periods and renewals (CONTRACT §7): before an account's first command in a batch it is brought up to
 * date once (due holds expire, an ended period renews with its rollover, due grants expire, and a plan change
 * that waited for that end is applied); a plan change through {@code PUT} starts a new period at once, one
 * within the period (CONTRACT §13) keeps it.
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
        long expired = endAllowances(account, null);
        account.plan = plan;
        account.planChanged = true;
        account.anchor = batch.now;
        account.pending = Optional.empty();
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
        PlanTerms ending = account.plan;
        Optional<PendingPlanChange> applied = applyPendingChange(account);
        Period next = Period.containing(account.anchor, account.plan.period(), batch.now);
        Map<String, List<Grant>> unusedByPool = grants.live(account, null, GrantKind.ALLOWANCE).stream()
                .filter(g -> g.expiredBy(batch.now))
                .collect(Collectors.groupingBy(Grant::pool, TreeMap::new, Collectors.toList()));
        long rolledOver = 0;
        long expired = 0;
        for (Map.Entry<String, List<Grant>> pool : unusedByPool.entrySet()) {
            long kept = rollOver(account, pool.getValue(), rollover(ending, pool.getKey()), next);
            rolledOver += kept;
            expired += pool.getValue().stream().mapToLong(Grant::remaining).sum() - kept;
        }
        long granted = grantAllowance(account, next, false, null, LongUnaryOperator.identity());
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
        if (applied.isPresent()) {
            batch.changes.events.add(NewEvent.planChanged(
                    account.id,
                    ending.planId(),
                    account.plan.planId(),
                    PlanChangeTiming.PERIOD_END.wire(),
                    applied.get().at(),
                    next.start(),
                    next.end(),
                    expired,
                    granted,
                    account.balance));
        }
    }

    /**
     * Moves the account to the plan of its waiting change when that change is due, once: the change is
     * cleared in the same round, with the account locked. The anchor stays unless the new plan's periods are
     * of another length, when they count from the change's boundary. Empty when no change was applied.
     */
    private Optional<PendingPlanChange> applyPendingChange(WorkingAccount account) {
        if (account.pending.isEmpty() || account.pending.get().at().isAfter(batch.now)) {
            return Optional.empty();
        }
        PendingPlanChange change = account.pending.get();
        account.pending = Optional.empty();
        account.periodChanged = true;
        PlanTerms plan = batch.read.plans().get(change.planId());
        if (plan == null || plan.planId().equals(account.plan.planId())) {
            return Optional.empty();
        }
        if (plan.period() != account.plan.period()) {
            account.anchor = change.at();
        }
        account.plan = plan;
        account.planChanged = true;
        return Optional.of(change);
    }

    /**
     * Moves the account to {@code plan} now, keeping its period (CONTRACT §13): what is left of every
     * allowance grant that has not expired yet (rolled-over ones included) expires, and each of those grants
     * now ends now, so that tokens a revert returns to it expire again; the new plan grants
     * {@code floor(allowance × time left / period length)} in each of its pools (milliseconds), as grants that
     * start now. The account must be up to date, so its period has not ended.
     */
    InPeriodChangeResult.Changed changeNow(WorkingAccount account, PlanTerms plan) {
        Period period = account.period.orElseThrow();
        String previous = account.plan.planId();
        long expired = endAllowances(account, Pools.DEFAULT);
        if (plan.period() != account.plan.period()) {
            account.anchor = period.end(); // the next period, on the new plan's length, starts where this one ends
        }
        account.plan = plan;
        account.planChanged = true;
        account.pending = Optional.empty();
        long left = Duration.between(batch.now, period.end()).toMillis();
        long length = Duration.between(period.start(), period.end()).toMillis();
        String reason = PlanChangeTiming.REASON + " from " + previous + " to " + plan.planId() + " (now)";
        long granted = grantAllowance(account, period, true, reason, allowance -> prorated(allowance, left, length));
        batch.changes.events.add(NewEvent.planChanged(
                account.id,
                previous,
                plan.planId(),
                PlanChangeTiming.NOW.wire(),
                batch.now,
                period.start(),
                period.end(),
                expired,
                granted,
                account.balance));
        return new InPeriodChangeResult.Changed(
                previous, plan.planId(), batch.now, period, expired, granted, account.balance);
    }

    /** {@code floor(allowance × left / length)}, exactly: an allowance is up to 10¹², a year 3.2·10¹⁰ ms. */
    static long prorated(long allowance, long left, long length) {
        return BigInteger.valueOf(allowance)
                .multiply(BigInteger.valueOf(left))
                .divide(BigInteger.valueOf(length))
                .longValueExact();
    }

    /**
     * Ends every allowance grant of the account that has not expired (spent and rolled-over ones too): what is
     * left of it expires, and it now ends now, so that tokens a revert returns to it expire again. Returns the
     * tokens that expired in {@code pool}, or in every pool when null.
     */
    private long endAllowances(WorkingAccount account, @Nullable String pool) {
        List<Grant> unexpired = account.grantIds.stream()
                .map(batch::grant)
                .filter(g -> g.kind() == GrantKind.ALLOWANCE && !g.expiredBy(batch.now))
                .sorted(Grant.SPENDING_ORDER)
                .toList();
        long expired = 0;
        for (Grant grant : unexpired) {
            long tokens = grants.expire(account, grant, grant.remaining());
            if (pool == null || grant.pool().equals(pool)) {
                expired += tokens;
            }
            batch.putGrant(batch.grant(grant.id()).expiringAt(batch.now));
        }
        return expired;
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
        long granted = grantAllowance(account, first, true, null, LongUnaryOperator.identity());
        account.dueAt = nextDue(account);
        account.periodChanged = true;
        return granted;
    }

    /**
     * Grants the plan's allowance of each pool, {@code share} of it, until the period ends, as grants that start
     * at the period's start (a renewal) or, when {@code startsNow} (an opening, a plan change), now; {@code reason}
     * goes on their lines. Returns the {@code default} pool's.
     */
    private long grantAllowance(
            WorkingAccount account,
            Period period,
            boolean startsNow,
            @Nullable String reason,
            LongUnaryOperator share) {
        long granted = share.applyAsLong(account.plan.allowance());
        account.period = Optional.of(period);
        account.periodGranted = granted;
        account.periodChanged = true;
        if (granted > 0) {
            grants.grant(
                    account,
                    GrantKind.ALLOWANCE,
                    granted,
                    Optional.of(period.end()),
                    Optional.of(startsNow ? grantStart(account, Pools.DEFAULT) : period.start()),
                    reason);
        }
        account.plan.pools().forEach((pool, terms) -> {
            account.notePool(pool);
            long tokens = share.applyAsLong(terms.allowance());
            if (tokens > 0) {
                grants.grant(
                        account,
                        pool,
                        GrantKind.ALLOWANCE,
                        tokens,
                        Optional.of(period.end()),
                        Optional.of(startsNow ? grantStart(account, pool) : period.start()),
                        reason);
            }
        });
        return granted;
    }

    /**
     * When an allowance grant of the pool that starts now does: now, or the first millisecond after it that no
     * allowance grant of the pool starts at. A grant's start is unique per account and pool (the index
     * {@code grants_allowance_period}); only plan changes within one millisecond (or one at the very instant
     * a period renewed) move it, and the store has read every allowance grant of the period for them.
     */
    private Instant grantStart(WorkingAccount account, String pool) {
        Instant start = batch.now;
        while (startTaken(account, pool, start)) {
            start = start.plusMillis(1);
        }
        return start;
    }

    private boolean startTaken(WorkingAccount account, String pool, Instant start) {
        for (String id : account.grantIds) {
            Grant grant = batch.grant(id);
            if (grant.kind() == GrantKind.ALLOWANCE
                    && grant.pool().equals(pool)
                    && grant.periodStart().equals(Optional.of(start))) {
                return true;
            }
        }
        return false;
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
