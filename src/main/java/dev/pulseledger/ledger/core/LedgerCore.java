package dev.pulseledger.ledger.core;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
     * Decides a batch of commands on the state read for them: outcomes and the change set to write. The
     * batch happens at {@code now}, or at the newest ledger line of its accounts when a clock is behind
     * that (it went back, or another node's runs ahead): an account's lines never go back in time, so
     * their time order is their sequence order (V181).
     *
     * @param grantIds a source of fresh grant ids
     */
    public static Decision decide(
            LedgerState state, List<LedgerCommand> commands, Instant now, Supplier<String> grantIds) {
        Instant at = state.accounts().values().stream()
                .flatMap(account -> account.lastLineAt().stream())
                .reduce(now, (a, b) -> a.isAfter(b) ? a : b);
        Batch batch = new Batch(state, at, grantIds);
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
                        case LedgerCommand.Reserve reserve -> batch.reserve(reserve);
                        case LedgerCommand.Settle settle -> batch.settle(settle);
                        case LedgerCommand.Release release -> batch.release(release);
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
        /** No earlier than the expiry of any held reservation of the account that the store did not read. */
        Instant unreadHoldsFrom;

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
            this.unreadHoldsFrom = state.dueAt();
        }

        Working(String id, PlanTerms plan, Instant now) {
            this.id = id;
            this.lowBalanceThreshold = Optional.empty();
            this.plan = plan;
            this.anchor = now;
            this.period = Optional.empty();
            this.dueAt = now;
            this.unreadHoldsFrom = Instant.MAX;
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
        private final Map<String, Reservation> reservations;
        private final Set<String> newReservationIds = new LinkedHashSet<>();
        private final Set<String> endedReservationIds = new LinkedHashSet<>();

        Batch(LedgerState state, Instant now, Supplier<String> grantIds) {
            this.state = state;
            this.now = now;
            this.grantIds = grantIds;
            for (AccountState account : state.accounts().values()) {
                Working working = new Working(account);
                working.unreadHoldsFrom = state.holdsDueAfter().getOrDefault(account.id(), account.dueAt());
                accounts.put(account.id(), working);
                for (Grant grant : account.grants()) {
                    grants.put(grant.id(), grant);
                    working.grantIds.add(grant.id());
                }
            }
            state.allocations().forEach((spendingId, list) -> allocations.put(spendingId, new ArrayList<>(list)));
            this.reservations = new HashMap<>(state.reservations());
        }

        ChangeSet changes() {
            List<AccountPeriod> periods = accounts.values().stream()
                    .filter(a -> a.periodChanged)
                    .map(Working::period)
                    .toList();
            List<Allocation> newAllocations = allocatingSpendings.stream()
                    .flatMap(id -> allocations.getOrDefault(id, List.of()).stream())
                    .toList();
            List<Allocation> returned = returningSpendings.stream()
                    .filter(id -> !allocatingSpendings.contains(id))
                    .flatMap(id -> allocations.getOrDefault(id, List.of()).stream())
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
                    events,
                    newReservationIds.stream().map(reservations::get).toList(),
                    endedReservationIds.stream()
                            .filter(id -> !newReservationIds.contains(id))
                            .map(reservations::get)
                            .toList());
        }

        SpendResult spend(LedgerCommand.Spend command) {
            SpendRequest request = command.request();
            Long landedBalance = state.landedSpendBalances().get(command.spendingId());
            Spending landed = state.spendings().get(command.spendingId());
            if (landedBalance != null && landed != null && landed.accountId().equals(request.accountId())) {
                Spending first = new Spending(
                        landed.id(), landed.accountId(), landed.amount(), 0, landed.createdAt(), Optional.empty());
                return new SpendResult.Spent(first, landedBalance, false);
            }
            Optional<IdempotencyScope> scope =
                    request.idempotencyKey().map(key -> new IdempotencyScope(request.accountId(), key));
            if (scope.isPresent()) {
                IdempotencyRecord earlier = idempotencyRecord(scope.get());
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
                        command.spendingId(), request.accountId(), request.amount(), 0, now, Optional.empty());
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

        private @Nullable IdempotencyRecord idempotencyRecord(IdempotencyScope scope) {
            return newIdempotencyRecords.getOrDefault(
                    scope, state.idempotencyRecords().get(scope));
        }

        RevertResult revert(LedgerCommand.Revert command) {
            Spending spending = current(command.spendingId());
            if (spending == null || !spending.accountId().equals(command.accountId())) {
                return new RevertResult.NotFound();
            }
            Optional<IdempotencyScope> scope =
                    command.idempotencyKey().map(key -> new IdempotencyScope(command.accountId(), key));
            if (scope.isPresent()) {
                IdempotencyRecord earlier = idempotencyRecord(scope.get());
                if (earlier != null) {
                    return earlier.replay(command, spending);
                }
            }
            Working account = upToDate(command.accountId());
            long tokens = command.amount().orElse(spending.unreverted());
            if (tokens > spending.unreverted()) {
                return new RevertResult.AmountExceedsUnreverted(spending.unreverted());
            }
            if (tokens == 0) {
                return new RevertResult.Reverted(spending, account.balance, false);
            }
            Spending reverted = spending.reverting(tokens, now);
            if (newSpendings.containsKey(spending.id())) {
                newSpendings.put(spending.id(), reverted);
            } else {
                revertedEarlierSpendings.put(reverted.id(), reverted);
            }
            addToBalance(account, tokens);
            line(account, LedgerKind.REVERT, tokens, Optional.of(spending.id()), Optional.empty());
            giveBack(account, spending.id(), tokens);
            RevertResult.Reverted result = new RevertResult.Reverted(reverted, account.balance, false);
            scope.ifPresent(s -> newIdempotencyRecords.put(s, IdempotencyRecord.of(command, result, now)));
            return result;
        }

        /**
         * Returns {@code tokens} that a spending or reservation drew to the grants they came from, those
         * that expire last first; tokens whose grant has expired expire again at once, with a line each and
         * one credits.expired event.
         */
        private void giveBack(Working account, String ownerId, long tokens) {
            List<Allocation> drawn = allocations.get(ownerId);
            if (drawn == null || drawn.isEmpty()) {
                throw new IllegalStateException(ownerId + " has no record of its grants");
            }
            Map<String, Long> expiredAgain = new LinkedHashMap<>();
            List<Allocation> returned = new ArrayList<>(drawn.size());
            long left = tokens;
            for (Allocation allocation : inSpendingOrder(drawn).reversed()) {
                long back = Math.min(left, allocation.unreturned());
                returned.add(allocation.returning(back));
                returnToGrant(account, allocation.grantId(), back, expiredAgain);
                left -= back;
            }
            if (left > 0) {
                throw new IllegalStateException(ownerId + " holds less than " + tokens + " tokens");
            }
            allocations.put(ownerId, returned);
            returningSpendings.add(ownerId);
            expireReturned(account, ownerId, expiredAgain);
        }

        /** The allocations in the order their grants are spent in: the soonest to expire first. */
        private List<Allocation> inSpendingOrder(List<Allocation> drawn) {
            return drawn.stream()
                    .sorted(Comparator.comparing(a -> grant(a.grantId()), Grant.SPENDING_ORDER))
                    .toList();
        }

        private Grant grant(String grantId) {
            Grant grant = grants.get(grantId);
            if (grant == null) {
                throw new IllegalStateException("Grant " + grantId + " was not read");
            }
            return grant;
        }

        /** Puts tokens back in their grant, or notes them in {@code expiredAgain} if it has expired. */
        private void returnToGrant(Working account, String grantId, long tokens, Map<String, Long> expiredAgain) {
            if (tokens == 0) {
                return;
            }
            Grant grant = grant(grantId);
            if (grant.expiredBy(now)) {
                putGrant(grant.expireReturned(tokens));
                expiredAgain.merge(grant.id(), tokens, Long::sum);
            } else {
                putGrant(grant.withRemaining(grant.remaining() + tokens));
                grant.expiresAt().ifPresent(at -> dueNoLaterThan(account, at));
            }
        }

        /** Returned tokens whose grant has expired leave the balance again: an expire line each. */
        private void expireReturned(Working account, String ownerId, Map<String, Long> expiredAgain) {
            expiredAgain.forEach((grantId, tokens) -> {
                addToBalance(account, -tokens);
                line(account, LedgerKind.EXPIRE, -tokens, Optional.of(ownerId), Optional.of(grantId));
            });
            long expired =
                    expiredAgain.values().stream().mapToLong(Long::longValue).sum();
            if (expired > 0) {
                events.add(NewEvent.creditsExpired(
                        account.id, expired, expiredAgain, Optional.of(ownerId), account.balance));
            }
        }

        ReserveResult reserve(LedgerCommand.Reserve command) {
            Reservation landed = reservations.get(command.reservationId());
            if (landed != null && landed.accountId().equals(command.accountId())) {
                return new ReserveResult.Reserved(landed, upToDate(command.accountId()).balance, false);
            }
            Optional<IdempotencyScope> scope =
                    command.idempotencyKey().map(key -> new IdempotencyScope(command.accountId(), key));
            if (scope.isPresent()) {
                IdempotencyRecord earlier = idempotencyRecord(scope.get());
                if (earlier != null) {
                    return earlier.replay(command);
                }
            }
            Working account = upToDate(command.accountId());
            ReserveResult result;
            if (account.balance >= command.amount()) {
                draw(account, command.reservationId(), command.amount());
                addToBalance(account, -command.amount());
                Reservation held = Reservation.held(
                        command.reservationId(), account.id, command.amount(), now, now.plus(command.lifetime()));
                reservations.put(held.id(), held);
                newReservationIds.add(held.id());
                line(account, LedgerKind.HOLD, -held.amount(), Optional.of(held.id()), Optional.empty());
                dueNoLaterThan(account, held.expiresAt());
                result = new ReserveResult.Reserved(held, account.balance, false);
            } else {
                result = new ReserveResult.InsufficientBalance(account.balance, command.amount(), false);
            }
            scope.ifPresent(s -> newIdempotencyRecords.put(s, IdempotencyRecord.of(command, result, now)));
            return result;
        }

        /**
         * Ends a held reservation with a spending of {@code amount} drawn from the grants the hold took,
         * the soonest to expire first; the rest goes back to its grants.
         */
        SettleResult settle(LedgerCommand.Settle command) {
            Reservation named = reservations.get(command.reservationId());
            if (named == null || !named.accountId().equals(command.accountId())) {
                return new SettleResult.NotFound();
            }
            Working account = upToDate(command.accountId());
            Reservation reservation = endIfDue(account, command.reservationId());
            long amount = command.amount().orElse(reservation.amount());
            switch (reservation.status()) {
                case SETTLED -> {
                    return reservation.settledAmount().orElseThrow() == amount
                            ? new SettleResult.Settled(reservation)
                            : new SettleResult.AlreadySettled(reservation);
                }
                case RELEASED, EXPIRED -> {
                    return new SettleResult.NotHeld(reservation);
                }
                case HELD -> {}
            }
            if (amount > reservation.amount()) {
                return new SettleResult.AmountExceedsHeld(reservation.amount());
            }
            addToBalance(account, reservation.amount());
            line(account, LedgerKind.RELEASE, reservation.amount(), Optional.of(reservation.id()), Optional.empty());
            Map<String, Long> expiredAgain = new LinkedHashMap<>();
            List<Allocation> spent = new ArrayList<>();
            List<Allocation> ended = new ArrayList<>();
            long left = amount;
            for (Allocation allocation : inSpendingOrder(allocations.getOrDefault(reservation.id(), List.of()))) {
                long take = Math.min(left, allocation.unreturned());
                if (take > 0) {
                    spent.add(new Allocation(command.spendingId(), allocation.grantId(), take, 0));
                }
                returnToGrant(account, allocation.grantId(), allocation.unreturned() - take, expiredAgain);
                ended.add(allocation.returning(allocation.unreturned()));
                left -= take;
            }
            if (left > 0) {
                throw new IllegalStateException(reservation.id() + " holds less than " + amount + " tokens");
            }
            allocations.put(reservation.id(), ended);
            returningSpendings.add(reservation.id());
            Optional<String> spendingId = Optional.empty();
            if (amount > 0) {
                allocations.put(command.spendingId(), spent);
                allocatingSpendings.add(command.spendingId());
                addToBalance(account, -amount);
                Spending spending = new Spending(command.spendingId(), account.id, amount, 0, now, Optional.empty());
                newSpendings.put(spending.id(), spending);
                line(account, LedgerKind.SPEND, -amount, Optional.of(spending.id()), Optional.empty());
                spendingId = Optional.of(spending.id());
            }
            expireReturned(account, reservation.id(), expiredAgain);
            Reservation settled = reservation.settled(amount, spendingId, now, account.balance);
            end(settled);
            return new SettleResult.Settled(settled);
        }

        ReleaseResult release(LedgerCommand.Release command) {
            Reservation named = reservations.get(command.reservationId());
            if (named == null || !named.accountId().equals(command.accountId())) {
                return new ReleaseResult.NotFound();
            }
            Working account = upToDate(command.accountId());
            Reservation reservation = endIfDue(account, command.reservationId());
            return switch (reservation.status()) {
                case HELD -> new ReleaseResult.Released(returnHold(account, reservation, ReservationStatus.RELEASED));
                case RELEASED -> new ReleaseResult.Released(reservation);
                case SETTLED, EXPIRED -> new ReleaseResult.NotHeld(reservation);
            };
        }

        /** The reservation as it stands, expired first if its expiry has come while it was held. */
        private Reservation endIfDue(Working account, String reservationId) {
            Reservation reservation = Objects.requireNonNull(reservations.get(reservationId), reservationId);
            return reservation.dueBy(now) ? returnHold(account, reservation, ReservationStatus.EXPIRED) : reservation;
        }

        /** Ends the reservation by returning everything it holds: released, or expired with an event. */
        private Reservation returnHold(Working account, Reservation reservation, ReservationStatus end) {
            addToBalance(account, reservation.amount());
            line(account, LedgerKind.RELEASE, reservation.amount(), Optional.of(reservation.id()), Optional.empty());
            giveBack(account, reservation.id(), reservation.amount());
            Reservation ended = reservation.returned(end, now, account.balance);
            end(ended);
            if (end == ReservationStatus.EXPIRED) {
                events.add(NewEvent.reservationExpired(
                        account.id, ended.id(), ended.amount(), ended.expiresAt(), account.balance));
            }
            return ended;
        }

        private void end(Reservation ended) {
            reservations.put(ended.id(), ended);
            endedReservationIds.add(ended.id());
        }

        /** Expires the account's held reservations whose expiry has come, the earliest first. */
        private void expireHolds(Working account) {
            List<Reservation> due = reservations.values().stream()
                    .filter(r -> r.accountId().equals(account.id) && r.dueBy(now))
                    .sorted(Comparator.comparing(Reservation::expiresAt).thenComparing(Reservation::id))
                    .toList();
            for (Reservation reservation : due) {
                returnHold(account, reservation, ReservationStatus.EXPIRED);
            }
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
            expireHolds(account);
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
                // The grant came from this map (liveGrants), and expiring only replaces it.
                Grant left = Objects.requireNonNull(grants.get(grant.id()), grant.id());
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
                @Nullable String reason) {
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

        private List<Grant> liveGrants(Working account, @Nullable GrantKind kind) {
            return account.grantIds.stream()
                    .map(grants::get)
                    .filter(g -> g.remaining() > 0 && (kind == null || g.kind() == kind))
                    .sorted(Grant.SPENDING_ORDER)
                    .toList();
        }

        /**
         * When the account next needs the core: its period's end, its soonest live grant's expiry, or its
         * soonest held reservation's expiry.
         */
        private Instant nextDue(Working account) {
            Instant due = account.period.map(Period::end).orElse(now);
            if (account.unreadHoldsFrom.isBefore(due)) {
                due = account.unreadHoldsFrom;
            }
            for (Reservation reservation : reservations.values()) {
                if (reservation.accountId().equals(account.id)
                        && reservation.status() == ReservationStatus.HELD
                        && reservation.expiresAt().isBefore(due)) {
                    due = reservation.expiresAt();
                }
            }
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

        /** Every ledger line follows one, so the changed balances name every account with a new line. */
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
