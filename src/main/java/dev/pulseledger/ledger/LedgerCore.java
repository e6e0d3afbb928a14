package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.ledger.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.LedgerState.AccountState;
import dev.pulseledger.ledger.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The rules of every balance change (CONTRACT §3, §6, §7), free of SQL, HTTP and clocks: given the
 * locked state of the accounts a batch touches, its commands in queue order and the time, it decides
 * each command's outcome and the one change set that the store then writes. Commands later in a batch
 * see what earlier ones decided.
 *
 * <p>Every token sits in a grant. Before an account's first command in a batch, the account is brought
 * up to date: an ended period is renewed (unused allowance above the rollover expires, the allowance of
 * the period containing now is granted: one renewal however long the account was idle) and grants whose
 * expiry has come expire.
 */
public final class LedgerCore {
    /** The most tokens one account may hold: far from overflow, far beyond any real use. */
    public static final long MAX_BALANCE = 1_000_000_000_000_000L;

    /** The reason on the credit line of an account's opening balance. */
    static final String OPENING_BALANCE = "opening balance";

    static final String RENEWAL = "renewal";
    static final String PLAN_CHANGE = "plan_change";

    private LedgerCore() {}

    /**
     * @param grantIds a source of fresh grant ids
     */
    public static Decision decide(
            LedgerState state, List<LedgerCommand> commands, Instant now, Supplier<String> grantIds) {
        Batch batch = new Batch(state, now, grantIds);
        List<LedgerOutcome> outcomes = new ArrayList<>(commands.size());
        for (LedgerCommand command : commands) {
            outcomes.add(
                    switch (command) {
                        case LedgerCommand.Spend spend -> batch.spend(spend);
                        case LedgerCommand.Revert revert -> batch.revert(revert);
                        case LedgerCommand.Credit credit -> batch.credit(credit);
                        case LedgerCommand.Open open -> batch.open(open);
                        case LedgerCommand.ChangePlan change -> batch.changePlan(change);
                        case LedgerCommand.Touch touch -> batch.touch(touch);
                    });
        }
        return new Decision(outcomes, batch.changes());
    }

    /** One account while a batch decides it. */
    private static final class Working {
        final String id;
        final Optional<Long> lowBalanceThreshold;
        long balance;
        PlanTerms plan;
        Instant anchor;
        Optional<Period> period;
        long periodGranted;
        Instant dueAt;
        boolean periodChanged;
        boolean planChanged;
        final List<String> grantIds = new ArrayList<>();

        Working(AccountState state) {
            this.id = state.id();
            this.lowBalanceThreshold = state.lowBalanceThreshold();
            this.balance = state.balance();
            this.plan = state.plan();
            this.anchor = state.anchor();
            this.period = state.period();
            this.periodGranted = state.periodGranted();
            this.dueAt = state.dueAt();
        }

        Working(String id, PlanTerms plan, Instant now) {
            this.id = id;
            this.lowBalanceThreshold = Optional.empty();
            this.plan = plan;
            this.anchor = now;
            this.period = Optional.empty();
            this.dueAt = now;
            this.periodChanged = true;
        }

        AccountPeriod period() {
            return new AccountPeriod(id, plan.planId(), planChanged, anchor, period, periodGranted, dueAt);
        }
    }

    /** The working state of one batch while its commands are decided. */
    private static final class Batch {
        private final LedgerState state;
        private final Instant now;
        private final Supplier<String> grantIds;
        private final Map<String, Working> accounts = new HashMap<>();
        private final Set<String> upToDate = new HashSet<>();
        private final Map<String, Grant> grants = new HashMap<>();
        private final Set<String> newGrantIds = new LinkedHashSet<>();
        private final Set<String> changedGrantIds = new LinkedHashSet<>();
        private final Map<String, List<Allocation>> allocations = new HashMap<>();
        private final Set<String> allocatingSpendings = new LinkedHashSet<>();
        private final Set<String> returningSpendings = new LinkedHashSet<>();
        private final List<Account> newAccounts = new ArrayList<>();
        private final Map<String, Long> changedBalances = new LinkedHashMap<>();
        private final Map<String, Spending> newSpendings = new LinkedHashMap<>();
        private final Map<String, Spending> revertedEarlierSpendings = new LinkedHashMap<>();
        private final Map<IdempotencyScope, IdempotencyRecord> newIdempotencyRecords = new LinkedHashMap<>();
        private final List<LedgerLine> lines = new ArrayList<>();
        private final List<NewEvent> events = new ArrayList<>();

        Batch(LedgerState state, Instant now, Supplier<String> grantIds) {
            this.state = state;
            this.now = now;
            this.grantIds = grantIds;
            for (AccountState account : state.accounts().values()) {
                Working working = new Working(account);
                accounts.put(account.id(), working);
                for (Grant grant : account.grants()) {
                    grants.put(grant.id(), grant);
                    working.grantIds.add(grant.id());
                }
            }
            state.allocations().forEach((spendingId, list) -> allocations.put(spendingId, new ArrayList<>(list)));
        }

        ChangeSet changes() {
            List<AccountPeriod> periods = accounts.values().stream()
                    .filter(a -> a.periodChanged)
                    .map(Working::period)
                    .toList();
            List<Allocation> newAllocations = allocatingSpendings.stream()
                    .flatMap(id -> allocations.get(id).stream())
                    .toList();
            List<Allocation> returned = returningSpendings.stream()
                    .filter(id -> !allocatingSpendings.contains(id))
                    .flatMap(id -> allocations.get(id).stream())
                    .toList();
            return new ChangeSet(
                    now,
                    newAccounts,
                    changedBalances,
                    periods,
                    newGrantIds.stream().map(grants::get).toList(),
                    changedGrantIds.stream()
                            .filter(id -> !newGrantIds.contains(id))
                            .map(grants::get)
                            .toList(),
                    newAllocations,
                    returned,
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
            Working account = upToDate(request.accountId());
            long before = account.balance;
            SpendResult result;
            if (before >= request.amount()) {
                draw(account, command.spendingId(), request.amount());
                long after = addToBalance(account, -request.amount());
                noteLowBalance(account, before, after, command.spendingId());
                Spending spending = new Spending(
                        command.spendingId(), request.accountId(), request.amount(), false, now, Optional.empty());
                newSpendings.put(spending.id(), spending);
                line(account, LedgerKind.SPEND, -spending.amount(), Optional.of(spending.id()), Optional.empty());
                result = new SpendResult.Spent(spending, after, false);
            } else {
                result = new SpendResult.InsufficientBalance(before, request.amount(), false);
            }
            scope.ifPresent(s -> newIdempotencyRecords.put(s, IdempotencyRecord.of(request, result, now)));
            return result;
        }

        /** Takes {@code amount} from the account's grants, the soonest to expire first. */
        private void draw(Working account, String spendingId, long amount) {
            List<Grant> live = account.grantIds.stream()
                    .map(grants::get)
                    .filter(g -> g.remaining() > 0)
                    .sorted(Grant.SPENDING_ORDER)
                    .toList();
            List<Allocation> drawn = new ArrayList<>();
            long left = amount;
            for (Grant grant : live) {
                if (left == 0) {
                    break;
                }
                long take = Math.min(left, grant.remaining());
                putGrant(grant.withRemaining(grant.remaining() - take));
                drawn.add(new Allocation(spendingId, grant.id(), take, 0));
                left -= take;
            }
            if (left > 0) {
                throw new IllegalStateException("The grants of " + account.id + " hold less than its balance");
            }
            allocations.put(spendingId, drawn);
            allocatingSpendings.add(spendingId);
        }

        /** Raises balance.low when this spend takes the balance from >= threshold to below it. */
        private void noteLowBalance(Working account, long before, long after, String spendingId) {
            account.lowBalanceThreshold.ifPresent(threshold -> {
                if (before >= threshold && after < threshold) {
                    events.add(NewEvent.balanceLow(account.id, before, after, threshold, spendingId));
                }
            });
        }

        RevertResult revert(LedgerCommand.Revert command) {
            Spending spending = current(command.spendingId());
            if (spending == null || !spending.accountId().equals(command.accountId())) {
                return new RevertResult.NotFound();
            }
            Working account = upToDate(command.accountId());
            if (spending.reverted()) {
                return new RevertResult.Reverted(spending, account.balance);
            }
            Spending reverted = spending.revertedAt(now);
            if (newSpendings.containsKey(spending.id())) {
                newSpendings.put(spending.id(), reverted);
            } else {
                revertedEarlierSpendings.put(reverted.id(), reverted);
            }
            addToBalance(account, spending.amount());
            line(account, LedgerKind.REVERT, spending.amount(), Optional.of(spending.id()), Optional.empty());
            Map<String, Long> expiredAgain = giveBack(account, spending);
            long expired =
                    expiredAgain.values().stream().mapToLong(Long::longValue).sum();
            expiredAgain.forEach((grantId, tokens) -> {
                addToBalance(account, -tokens);
                line(account, LedgerKind.EXPIRE, -tokens, Optional.of(spending.id()), Optional.of(grantId));
            });
            if (expired > 0) {
                events.add(NewEvent.creditsExpired(
                        account.id, expired, expiredAgain, Optional.of(spending.id()), account.balance));
            }
            return new RevertResult.Reverted(reverted, account.balance);
        }

        /**
         * Returns the spending's tokens to the grants it drew from; tokens whose grant has expired expire
         * again at once. Returns what expired, by grant.
         */
        private Map<String, Long> giveBack(Working account, Spending spending) {
            List<Allocation> drawn = allocations.get(spending.id());
            if (drawn == null || drawn.isEmpty()) {
                throw new IllegalStateException("Spending " + spending.id() + " has no record of its grants");
            }
            Map<String, Long> expiredAgain = new LinkedHashMap<>();
            List<Allocation> returned = new ArrayList<>(drawn.size());
            for (Allocation allocation : drawn) {
                long tokens = allocation.unreturned();
                returned.add(allocation.returnedAll());
                Grant grant = grants.get(allocation.grantId());
                if (grant == null) {
                    throw new IllegalStateException("Grant " + allocation.grantId() + " was not read");
                }
                if (tokens == 0) {
                    continue;
                }
                if (grant.expiredBy(now)) {
                    putGrant(grant.expireReturned(tokens));
                    expiredAgain.merge(grant.id(), tokens, Long::sum);
                } else {
                    putGrant(grant.withRemaining(grant.remaining() + tokens));
                    grant.expiresAt().ifPresent(at -> dueNoLaterThan(account, at));
                }
            }
            allocations.put(spending.id(), returned);
            returningSpendings.add(spending.id());
            return expiredAgain;
        }

        /** The spending as this batch left it, else as the store read it; null when neither knows it. */
        private @Nullable Spending current(String spendingId) {
            Spending decidedHere = newSpendings.getOrDefault(spendingId, revertedEarlierSpendings.get(spendingId));
            return decidedHere != null ? decidedHere : state.spendings().get(spendingId);
        }

        CreditResult credit(LedgerCommand.Credit command) {
            if (!accounts.containsKey(command.accountId())) {
                return new CreditResult.AccountNotFound();
            }
            if (command.expiresAt().isPresent() && !command.expiresAt().get().isAfter(now)) {
                return new CreditResult.ExpiryNotInFuture();
            }
            Working account = upToDate(command.accountId());
            if (account.balance > MAX_BALANCE - command.amount()) {
                return new CreditResult.BalanceLimitReached();
            }
            grant(account, GrantKind.CREDIT, command.amount(), command.expiresAt(), Optional.empty(), command.reason());
            return new CreditResult.Credited(account.balance, now);
        }

        OpenResult open(LedgerCommand.Open command) {
            Account account = command.account();
            PlanTerms plan = state.plans().get(account.planId());
            if (plan == null) {
                return new OpenResult.UnknownPlan();
            }
            if (accounts.containsKey(account.id()) || account.balance() < 0 || account.balance() > MAX_BALANCE) {
                throw new IllegalArgumentException("Cannot open account " + account.id());
            }
            newAccounts.add(new Account(account.id(), account.name(), plan.planId(), 0, account.status(), now));
            Working opened = new Working(account.id(), plan, now);
            accounts.put(opened.id, opened);
            upToDate.add(opened.id);
            startPeriod(opened);
            if (account.balance() > 0) {
                grant(opened, GrantKind.CREDIT, account.balance(), Optional.empty(), Optional.empty(), OPENING_BALANCE);
            }
            return new OpenResult.Opened(new Account(
                    account.id(),
                    account.name(),
                    plan.planId(),
                    opened.balance,
                    account.status(),
                    now,
                    opened.period,
                    opened.dueAt));
        }

        PlanChangeResult changePlan(LedgerCommand.ChangePlan command) {
            if (!accounts.containsKey(command.accountId())) {
                return new PlanChangeResult.AccountNotFound();
            }
            PlanTerms plan = state.plans().get(command.planId());
            if (plan == null) {
                return new PlanChangeResult.UnknownPlan();
            }
            Working account = accounts.get(command.accountId());
            if (upToDate.add(account.id)) {
                expireDue(account); // the old period ends now: no renewal of it first
            }
            if (plan.planId().equals(account.plan.planId())) {
                catchUp(account);
                return new PlanChangeResult.Changed(account.period.orElseThrow());
            }
            long expired = 0;
            for (Grant grant : liveGrants(account, GrantKind.ALLOWANCE)) {
                expired += expire(account, grant, grant.remaining());
            }
            account.plan = plan;
            account.planChanged = true;
            account.anchor = now;
            long granted = startPeriod(account);
            Period period = account.period.orElseThrow();
            events.add(NewEvent.allowanceRenewed(
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

        TouchResult touch(LedgerCommand.Touch command) {
            if (!accounts.containsKey(command.accountId())) {
                return new TouchResult.AccountNotFound();
            }
            return new TouchResult.Touched(upToDate(command.accountId()).balance);
        }

        /** The account, brought up to date once per batch. */
        private Working upToDate(String accountId) {
            Working account = accounts.get(accountId);
            if (account == null) {
                throw new IllegalStateException("Account vanished while deciding a batch: " + accountId);
            }
            if (upToDate.add(accountId)) {
                catchUp(account);
            }
            return account;
        }

        private void catchUp(Working account) {
            if (account.dueAt.isAfter(now)) {
                return;
            }
            if (account.period.isEmpty() || !account.period.get().end().isAfter(now)) {
                renew(account);
            }
            expireDue(account);
            account.dueAt = nextDue(account);
            account.periodChanged = true;
        }

        /**
         * Ends the last period: unused allowance above the rollover expires, what rolls over lasts until
         * the new period's end, and the allowance of the period containing now is granted.
         */
        private void renew(Working account) {
            Period next = Period.containing(account.anchor, account.plan.period(), now);
            List<Grant> unused = liveGrants(account, GrantKind.ALLOWANCE).stream()
                    .filter(g -> g.expiredBy(now))
                    .toList();
            long total = unused.stream().mapToLong(Grant::remaining).sum();
            long rolledOver = Math.min(total, account.plan.rollover());
            long toExpire = total - rolledOver;
            long expired = 0;
            for (Grant grant : unused) {
                long tokens = Math.min(toExpire - expired, grant.remaining());
                expired += expire(account, grant, tokens);
                Grant left = grants.get(grant.id());
                if (left.remaining() > 0) {
                    putGrant(left.expiringAt(next.end()));
                }
            }
            long granted = grantAllowance(account, next);
            if (granted > 0 || expired > 0) {
                events.add(NewEvent.allowanceRenewed(
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

        /** Starts a period at the account's anchor (opening, plan change) and grants its allowance. */
        private long startPeriod(Working account) {
            Period first = Period.containing(account.anchor, account.plan.period(), now);
            long granted = grantAllowance(account, first);
            account.dueAt = nextDue(account);
            account.periodChanged = true;
            return granted;
        }

        private long grantAllowance(Working account, Period period) {
            account.period = Optional.of(period);
            account.periodGranted = account.plan.allowance();
            account.periodChanged = true;
            if (account.plan.allowance() > 0) {
                grant(
                        account,
                        GrantKind.ALLOWANCE,
                        account.plan.allowance(),
                        Optional.of(period.end()),
                        Optional.of(period.start()),
                        null);
            }
            return account.plan.allowance();
        }

        /** Expires every grant whose expiry has come, and raises credits.expired for them. */
        private void expireDue(Working account) {
            Map<String, Long> expired = new LinkedHashMap<>();
            for (Grant grant : liveGrants(account, null)) {
                if (grant.expiredBy(now)) {
                    expired.put(grant.id(), expire(account, grant, grant.remaining()));
                }
            }
            long total = expired.values().stream().mapToLong(Long::longValue).sum();
            if (total > 0) {
                events.add(NewEvent.creditsExpired(account.id, total, expired, Optional.empty(), account.balance));
            }
        }

        private long expire(Working account, Grant grant, long tokens) {
            if (tokens <= 0) {
                return 0;
            }
            putGrant(grant.expire(tokens));
            addToBalance(account, -tokens);
            line(account, LedgerKind.EXPIRE, -tokens, Optional.empty(), Optional.of(grant.id()));
            return tokens;
        }

        private void grant(
                Working account,
                GrantKind kind,
                long amount,
                Optional<Instant> expiresAt,
                Optional<Instant> periodStart,
                String reason) {
            Grant grant = new Grant(grantIds.get(), account.id, kind, amount, amount, 0, expiresAt, periodStart, now);
            putGrant(grant);
            newGrantIds.add(grant.id());
            account.grantIds.add(grant.id());
            addToBalance(account, amount);
            LedgerKind lineKind = kind == GrantKind.ALLOWANCE ? LedgerKind.ALLOWANCE : LedgerKind.CREDIT;
            lines.add(new LedgerLine(
                    account.id,
                    lineKind,
                    amount,
                    account.balance,
                    Optional.empty(),
                    Optional.of(grant.id()),
                    Optional.ofNullable(reason)));
            expiresAt.ifPresent(at -> dueNoLaterThan(account, at));
        }

        private List<Grant> liveGrants(Working account, GrantKind kind) {
            return account.grantIds.stream()
                    .map(grants::get)
                    .filter(g -> g.remaining() > 0 && (kind == null || g.kind() == kind))
                    .sorted(Grant.SPENDING_ORDER)
                    .toList();
        }

        /** When the account next needs the core: its period's end or its soonest live grant's expiry. */
        private Instant nextDue(Working account) {
            Instant due = account.period.map(Period::end).orElse(now);
            for (Grant grant : liveGrants(account, null)) {
                if (grant.expiresAt().isPresent() && grant.expiresAt().get().isBefore(due)) {
                    due = grant.expiresAt().get();
                }
            }
            return due;
        }

        private void dueNoLaterThan(Working account, Instant at) {
            if (at.isBefore(account.dueAt)) {
                account.dueAt = at;
                account.periodChanged = true;
            }
        }

        private void putGrant(Grant grant) {
            grants.put(grant.id(), grant);
            changedGrantIds.add(grant.id());
        }

        private long addToBalance(Working account, long tokens) {
            long after = account.balance + tokens;
            if (after < 0) {
                throw new IllegalStateException("A balance would go negative: " + account.id);
            }
            account.balance = after;
            changedBalances.put(account.id, after);
            return after;
        }

        private void line(
                Working account, LedgerKind kind, long amount, Optional<String> spendingId, Optional<String> grantId) {
            lines.add(new LedgerLine(account.id, kind, amount, account.balance, spendingId, grantId, Optional.empty()));
        }
    }
}
