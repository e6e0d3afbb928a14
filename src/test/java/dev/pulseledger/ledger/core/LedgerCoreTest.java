package dev.pulseledger.ledger.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.PlanPeriod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/** The ledger's rules for spends, reverts and credits, decided without a database (CONTRACT §3, §6). */
class LedgerCoreTest {
    static final Instant T0 = Instant.parse("2026-01-31T12:00:00Z");
    static final PlanTerms FREE = new PlanTerms("free", 0, PlanPeriod.MONTH, 0);
    private final InMemoryLedger ledger = new InMemoryLedger(FREE);

    @Test
    void aSpendTakesTokensAndARefusedSpendChangesNothing() {
        ledger.apply(T0, open("acct_a", "free", 100));

        assertThat(ledger.apply(T0, spend("acct_a", 60, "sp_1"))).isInstanceOf(SpendResult.Spent.class);
        assertThat(ledger.apply(T0, spend("acct_a", 60, "sp_2")))
                .isEqualTo(new SpendResult.InsufficientBalance(40, 60, false));
        assertThat(ledger.balance("acct_a")).isEqualTo(40);
        assertThat(ledger.lines("acct_a"))
                .extracting(LedgerLine::kind)
                .containsExactly(LedgerKind.CREDIT, LedgerKind.SPEND);
    }

    @Test
    void openingOnAnUnknownPlanCreatesNothing() {
        Account account = new Account("acct_x", "X", "gold", 10, AccountStatus.ACTIVE, T0);

        assertThat(ledger.apply(T0, new LedgerCommand.Open(account))).isEqualTo(new OpenResult.UnknownPlan());
        assertThat(ledger.accountIds()).isEmpty();
    }

    @Test
    void aCreditBeyondTheLimitIsRefusedAndACreditToNoAccountIsNotFound() {
        ledger.apply(T0, open("acct_a", "free", LedgerCore.MAX_BALANCE));

        assertThat(ledger.apply(T0, credit("acct_a", 1, Optional.empty())))
                .isEqualTo(new CreditResult.BalanceLimitReached());
        assertThat(ledger.apply(T0, credit("acct_none", 1, Optional.empty())))
                .isEqualTo(new CreditResult.AccountNotFound());
    }

    @Test
    void anIdempotentRepeatInTheSameBatchReplaysTheFirstOutcome() {
        ledger.apply(T0, open("acct_a", "free", 100));
        SpendRequest request = new SpendRequest("acct_a", 30, Optional.of("k1"));

        List<LedgerOutcome> outcomes = ledger.apply(
                T0,
                List.of(
                        new LedgerCommand.Spend(request, "sp_1"),
                        new LedgerCommand.Spend(request, "sp_2"),
                        new LedgerCommand.Spend(new SpendRequest("acct_a", 31, Optional.of("k1")), "sp_3")));

        assertThat(((SpendResult.Spent) outcomes.get(1)).replayed()).isTrue();
        assertThat(((SpendResult.Spent) outcomes.get(1)).spending().id()).isEqualTo("sp_1");
        assertThat(outcomes.get(2)).isEqualTo(new SpendResult.IdempotencyKeyReused(30));
        assertThat(ledger.balance("acct_a")).isEqualTo(70);
    }

    @Test
    void aClockBehindAnAccountsNewestLineDecidesAtThatLine() {
        ledger.apply(T0, List.of(open("acct_a", "free", 100), open("acct_b", "free", 100)));
        ledger.apply(T0.plusSeconds(60), spend("acct_a", 1, "sp_ahead"));

        ledger.apply(T0.minusSeconds(3600), List.of(spend("acct_a", 1, "sp_behind"), spend("acct_b", 1, "sp_b")));
        ledger.apply(T0.plusSeconds(120), spend("acct_a", 1, "sp_later"));

        assertThat(ledger.spendings("acct_a"))
                .extracting(Spending::id, Spending::createdAt)
                .containsExactlyInAnyOrder(
                        Tuple.tuple("sp_ahead", T0.plusSeconds(60)),
                        Tuple.tuple("sp_behind", T0.plusSeconds(60)),
                        Tuple.tuple("sp_later", T0.plusSeconds(120)));
        assertThat(ledger.spendings("acct_b")).extracting(Spending::createdAt).containsExactly(T0.plusSeconds(60));
    }

    @Test
    void anotherAccountsSpendingIsNotFound() {
        ledger.apply(T0, List.of(open("acct_a", "free", 100), open("acct_b", "free", 100)));
        ledger.apply(T0, spend("acct_a", 10, "sp_1"));

        assertThat(ledger.apply(T0, new LedgerCommand.Revert("acct_b", "sp_1"))).isEqualTo(new RevertResult.NotFound());
        assertThat(ledger.balance("acct_a")).isEqualTo(90);
    }

    /**
     * Random batches of spends, whole and partial reverts, credits (some expiring), plan changes, touches,
     * reservations and their settles and releases over two accounts and months of time never break
     * CONTRACT §6, the grant invariants of §7 or the reservation invariants of §8.
     */
    @Test
    void randomBatchesKeepEveryInvariant() {
        PlanTerms monthly = new PlanTerms("monthly", 100, PlanPeriod.MONTH, 40);
        PlanTerms daily = new PlanTerms("daily", 30, PlanPeriod.DAY, 0);
        for (long seed = 0; seed < 80; seed++) {
            InMemoryLedger random = new InMemoryLedger(FREE, monthly, daily);
            Random rnd = new Random(seed);
            Instant now = T0;
            random.apply(
                    now,
                    List.of(open("acct_a", "monthly", rnd.nextInt(200)), open("acct_b", "daily", rnd.nextInt(200))));
            List<String> spent = new ArrayList<>();
            List<String> reserved = new ArrayList<>();
            for (int batch = 0; batch < 40; batch++) {
                now = now.plus(Duration.ofHours(rnd.nextInt(60)));
                List<LedgerCommand<?>> commands = new ArrayList<>();
                for (int i = rnd.nextInt(6); i >= 0; i--) {
                    String suffix = seed + "_" + batch + "_" + i;
                    commands.add(
                            rnd.nextInt(3) == 0
                                    ? randomReservationCommand(rnd, spent, reserved, suffix)
                                    : randomCommand(rnd, now, spent, "sp_" + suffix));
                }
                random.apply(now, commands);
                assertInvariants(random);
            }
        }
    }

    /**
     * Seeded random sequences of every command (opens mid-run, credits with and without expiry, spends,
     * partial and whole reverts, reserves, settles, releases, expiries by time, renewals, plan changes and
     * plan terms changed between batches) over three accounts keep CONTRACT §6–§8's invariants, and every
     * repeat under an idempotency key answers what its first attempt answered. A failure names its seed.
     */
    @Test
    void randomSequencesOfEveryCommandKeepEveryInvariantAndReplayEveryKey() {
        for (long seed = 1_000; seed < 1_060; seed++) {
            try {
                runRandomSequence(seed);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("randomSequences failed with seed " + seed + ": " + e.getMessage(), e);
            }
        }
    }

    private static void runRandomSequence(long seed) {
        PlanTerms monthly = new PlanTerms("monthly", 100, PlanPeriod.MONTH, 40);
        PlanTerms daily = new PlanTerms("daily", 30, PlanPeriod.DAY, 0);
        InMemoryLedger ledger = new InMemoryLedger(FREE, monthly, daily);
        Random rnd = new Random(seed);
        Instant now = T0;
        ledger.apply(now, List.of(open("acct_a", "monthly", rnd.nextInt(200)), open("acct_b", "daily", 0)));
        List<String> spent = new ArrayList<>();
        List<String> reserved = new ArrayList<>();
        java.util.Map<String, LedgerOutcome> firstByKey = new java.util.HashMap<>();
        for (int batch = 0; batch < 30; batch++) {
            now = now.plus(Duration.ofMinutes(rnd.nextInt(rnd.nextBoolean() ? 90 : 3 * 24 * 60)));
            if (batch == 10) {
                assertThat(ledger.apply(now, open("acct_c", "gold", 5))).isEqualTo(new OpenResult.UnknownPlan());
                assertThat(ledger.apply(now, open("acct_c", "daily", rnd.nextInt(50))))
                        .isInstanceOf(OpenResult.Opened.class);
            }
            if (rnd.nextInt(8) == 0) {
                ledger.updatePlan(new PlanTerms("monthly", rnd.nextInt(150), PlanPeriod.MONTH, rnd.nextInt(60)));
            }
            List<LedgerCommand<?>> commands = new ArrayList<>();
            for (int i = rnd.nextInt(8); i >= 0; i--) {
                String suffix = seed + "_" + batch + "_" + i;
                LedgerCommand<?> command = rnd.nextInt(3) == 0
                        ? randomReservationCommand(rnd, spent, reserved, suffix)
                        : randomCommand(rnd, now, spent, "sp_" + suffix);
                commands.add(batch >= 10 && rnd.nextInt(5) == 0 ? onAccount(command, "acct_c") : command);
            }
            List<LedgerOutcome> outcomes = ledger.apply(now, commands);
            for (int i = 0; i < commands.size(); i++) {
                assertReplaysItsKey(firstByKey, commands.get(i), outcomes.get(i));
            }
            assertInvariants(ledger);
        }
    }

    /** The same command on another account (spends, credits, touches and plan changes; others as they are). */
    private static LedgerCommand<?> onAccount(LedgerCommand<?> command, String accountId) {
        return switch (command) {
            case LedgerCommand.Spend s ->
                new LedgerCommand.Spend(
                        new SpendRequest(
                                accountId, s.request().amount(), s.request().idempotencyKey()),
                        s.spendingId());
            case LedgerCommand.Credit c -> new LedgerCommand.Credit(accountId, c.amount(), c.reason(), c.expiresAt());
            case LedgerCommand.Touch t -> new LedgerCommand.Touch(accountId);
            case LedgerCommand.ChangePlan p -> new LedgerCommand.ChangePlan(accountId, p.planId());
            default -> command;
        };
    }

    /** A keyed repeat answers its first outcome (replayed), or refuses when it asks for something else. */
    private static void assertReplaysItsKey(
            java.util.Map<String, LedgerOutcome> firstByKey, LedgerCommand<?> command, LedgerOutcome outcome) {
        switch (command) {
            case LedgerCommand.Spend spend
            when spend.request().idempotencyKey().isPresent() -> {
                String scope = "spend " + spend.accountId() + " "
                        + spend.request().idempotencyKey().get();
                LedgerOutcome first =
                        firstByKey.putIfAbsent(scope + " " + spend.request().amount(), outcome);
                if (first == null
                        && firstByKey.keySet().stream()
                                .anyMatch(k -> k.startsWith(scope + " ")
                                        && !k.equals(
                                                scope + " " + spend.request().amount()))) {
                    firstByKey.remove(scope + " " + spend.request().amount());
                    assertThat(outcome).as(scope).isInstanceOf(SpendResult.IdempotencyKeyReused.class);
                } else if (first != null) {
                    assertThat(outcome).as(scope).isEqualTo(replayed(first));
                }
            }
            case LedgerCommand.Reserve reserve
            when reserve.idempotencyKey().isPresent() -> {
                String scope = "reserve " + reserve.accountId() + " "
                        + reserve.idempotencyKey().get();
                String request = scope + " " + reserve.amount() + "/" + reserve.lifetime();
                LedgerOutcome first = firstByKey.putIfAbsent(request, outcome);
                if (first == null
                        && firstByKey.keySet().stream()
                                .anyMatch(k -> k.startsWith(scope + " ") && !k.equals(request))) {
                    firstByKey.remove(request);
                    assertThat(outcome).as(scope).isInstanceOf(ReserveResult.IdempotencyKeyReused.class);
                } else if (first != null) {
                    assertThat(outcome).as(scope).isEqualTo(replayed(first));
                }
            }
            default -> {}
        }
    }

    private static LedgerOutcome replayed(LedgerOutcome first) {
        return switch (first) {
            case SpendResult.Spent s -> new SpendResult.Spent(s.spending(), s.balance(), true);
            case SpendResult.InsufficientBalance i ->
                new SpendResult.InsufficientBalance(i.balance(), i.required(), true);
            case ReserveResult.Reserved r -> new ReserveResult.Reserved(r.reservation(), r.balance(), true);
            case ReserveResult.InsufficientBalance i ->
                new ReserveResult.InsufficientBalance(i.balance(), i.required(), true);
            default -> first;
        };
    }

    private static LedgerCommand<?> randomReservationCommand(
            Random rnd, List<String> spent, List<String> reserved, String suffix) {
        String account = rnd.nextBoolean() ? "acct_a" : "acct_b";
        int pick = rnd.nextInt(10);
        if (pick < 4 || reserved.isEmpty()) {
            reserved.add("rsv_" + suffix);
            Optional<String> key = rnd.nextInt(4) == 0 ? Optional.of("r" + rnd.nextInt(3)) : Optional.empty();
            Duration lifetime = Duration.ofHours(1 + rnd.nextInt(90));
            return new LedgerCommand.Reserve(account, 1 + rnd.nextInt(80), lifetime, key, "rsv_" + suffix);
        }
        String reservation = reserved.get(rnd.nextInt(reserved.size()));
        if (pick < 7) {
            spent.add("sp_settle_" + suffix);
            Optional<Long> amount = rnd.nextBoolean() ? Optional.of((long) rnd.nextInt(90)) : Optional.empty();
            return new LedgerCommand.Settle(account, reservation, amount, "sp_settle_" + suffix);
        }
        if (pick < 8 && !spent.isEmpty()) {
            Optional<String> key = rnd.nextBoolean() ? Optional.of("p" + rnd.nextInt(3)) : Optional.empty();
            return new LedgerCommand.Revert(
                    account, spent.get(rnd.nextInt(spent.size())), Optional.of(1L + rnd.nextInt(30)), key);
        }
        return new LedgerCommand.Release(account, reservation);
    }

    private static LedgerCommand<?> randomCommand(Random rnd, Instant now, List<String> spent, String newSpendingId) {
        String account = rnd.nextBoolean() ? "acct_a" : "acct_b";
        int pick = rnd.nextInt(21);
        if (pick < 9 || spent.isEmpty()) {
            spent.add(newSpendingId);
            Optional<String> key = rnd.nextInt(4) == 0 ? Optional.of("k" + rnd.nextInt(3)) : Optional.empty();
            return new LedgerCommand.Spend(new SpendRequest(account, 1 + rnd.nextInt(80), key), newSpendingId);
        }
        if (pick < 15) {
            return new LedgerCommand.Revert(account, spent.get(rnd.nextInt(spent.size())));
        }
        if (pick < 18) {
            Optional<Instant> expiresAt = rnd.nextBoolean()
                    ? Optional.of(now.plus(Duration.ofHours(1 + rnd.nextInt(100))))
                    : Optional.empty();
            return credit(account, 1 + rnd.nextInt(50), expiresAt);
        }
        if (pick < 19) {
            return new LedgerCommand.ChangePlan(account, rnd.nextBoolean() ? "monthly" : "daily");
        }
        if (pick < 20) {
            return rnd.nextInt(4) == 0
                    ? new LedgerCommand.CancelPlanChange(account)
                    : new LedgerCommand.ChangePlanInPeriod(
                            account,
                            rnd.nextBoolean() ? "monthly" : "daily",
                            rnd.nextBoolean() ? PlanChangeTiming.NOW : PlanChangeTiming.PERIOD_END);
        }
        return new LedgerCommand.Touch(account);
    }

    /** §6.1, §6.2 and §6.4 on every account, §7's grant invariants on every grant, and §8's on reservations. */
    static void assertInvariants(InMemoryLedger ledger) {
        for (String account : ledger.accountIds()) {
            long sum = 0;
            for (LedgerLine line : ledger.lines(account)) {
                sum += line.amount();
                assertThat(line.balanceAfter()).as("balance after each line").isEqualTo(sum);
            }
            assertThat(ledger.balance(account)).isNotNegative().isEqualTo(sum);
            long inGrants = 0;
            for (Grant grant : ledger.grants(account)) {
                long held = java.util.stream.Stream.concat(
                                ledger.spendings(account).stream().map(Spending::id),
                                ledger.reservations(account).stream().map(Reservation::id))
                        .flatMap(id -> ledger.allocations(id).stream())
                        .filter(a -> a.grantId().equals(grant.id()))
                        .mapToLong(Allocation::unreturned)
                        .sum();
                assertThat(grant.remaining() + grant.expired() + held)
                        .as("grant " + grant.id() + ": remaining + expired + held")
                        .isEqualTo(grant.amount());
                inGrants += grant.remaining();
            }
            assertThat(inGrants).as("tokens in grants of " + account).isEqualTo(ledger.balance(account));
            assertOneAllowanceAtATime(ledger, account);
            for (Spending spending : ledger.spendings(account)) {
                long refunded = ledger.lines(account).stream()
                        .filter(l ->
                                l.kind() == LedgerKind.REVERT && l.spendingId().equals(Optional.of(spending.id())))
                        .mapToLong(LedgerLine::amount)
                        .sum();
                assertThat(refunded).as("refunds of " + spending.id()).isEqualTo(spending.revertedAmount());
                long drawn = ledger.allocations(spending.id()).stream()
                        .mapToLong(Allocation::amount)
                        .sum();
                assertThat(drawn).as("what " + spending.id() + " drew").isEqualTo(spending.amount());
            }
            for (Reservation reservation : ledger.reservations(account)) {
                assertReservation(ledger, reservation);
            }
        }
    }

    /**
     * CONTRACT §13: allowance grants of one pool start at distinct instants, and every one that started before a
     * plan change's grant had expired by the time that grant started.
     */
    private static void assertOneAllowanceAtATime(InMemoryLedger ledger, String account) {
        List<Grant> allowances = ledger.grants(account).stream()
                .filter(g -> g.kind() == GrantKind.ALLOWANCE)
                .toList();
        assertThat(allowances)
                .extracting(g -> g.pool() + "@" + g.periodStart().orElseThrow())
                .as("allowance grant starts of " + account)
                .doesNotHaveDuplicates();
        for (LedgerLine line : ledger.lines(account)) {
            if (line.kind() != LedgerKind.ALLOWANCE
                    || !line.reason().orElse("").startsWith(PlanChangeTiming.REASON + " ")) {
                continue;
            }
            Grant change = allowances.stream()
                    .filter(g -> line.grantId().equals(Optional.of(g.id())))
                    .findFirst()
                    .orElseThrow();
            Instant start = change.periodStart().orElseThrow();
            for (Grant earlier : allowances) {
                if (earlier.pool().equals(change.pool())
                        && earlier.periodStart().orElseThrow().isBefore(start)) {
                    assertThat(earlier.expiresAt().orElseThrow())
                            .as(earlier.id() + " ended by the change's grant " + change.id())
                            .isBeforeOrEqualTo(start);
                }
            }
        }
    }

    /** A change {@code now} keeps the period and prorates; one at its end waits and the renewal applies it once. */
    @Test
    void aPlanChangeNowProratesAndOneAtThePeriodsEndIsAppliedByTheRenewalOnce() {
        PlanTerms basic = new PlanTerms("basic", 2400, PlanPeriod.DAY, 0);
        PlanTerms pro = new PlanTerms("pro", 4800, PlanPeriod.DAY, 0);
        InMemoryLedger plans = new InMemoryLedger(FREE, basic, pro);
        Instant start = Instant.parse("2026-03-01T00:00:00Z");
        plans.apply(start, open("acct_a", "basic", 0));

        InPeriodChangeResult now = (InPeriodChangeResult) plans.apply(
                start.plus(Duration.ofHours(6)),
                new LedgerCommand.ChangePlanInPeriod("acct_a", "pro", PlanChangeTiming.NOW));

        assertThat(now).isInstanceOfSatisfying(InPeriodChangeResult.Changed.class, changed -> {
            assertThat(changed.expired()).isEqualTo(2400);
            assertThat(changed.granted()).isEqualTo(3600);
            assertThat(changed.period().start()).isEqualTo(start);
        });
        assertThat(plans.apply(
                        start.plus(Duration.ofHours(7)),
                        new LedgerCommand.ChangePlanInPeriod("acct_a", "pro", PlanChangeTiming.PERIOD_END)))
                .isEqualTo(new InPeriodChangeResult.SamePlan());
        assertThat(plans.apply(
                        start.plus(Duration.ofHours(8)),
                        new LedgerCommand.ChangePlanInPeriod("acct_a", "basic", PlanChangeTiming.PERIOD_END)))
                .isInstanceOf(InPeriodChangeResult.Scheduled.class);
        assertThat(plans.account("acct_a").pendingChange()).isPresent();

        plans.apply(start.plus(Duration.ofHours(25)), new LedgerCommand.Touch("acct_a"));
        plans.apply(start.plus(Duration.ofHours(26)), new LedgerCommand.Touch("acct_a"));

        assertThat(plans.account("acct_a").plan().planId()).isEqualTo("basic");
        assertThat(plans.account("acct_a").pendingChange()).isEmpty();
        assertThat(plans.balance("acct_a")).isEqualTo(2400);
        assertThat(plans.apply(start.plus(Duration.ofHours(27)), new LedgerCommand.CancelPlanChange("acct_a")))
                .isEqualTo(new CancelPlanChangeResult.NothingPending());
        assertInvariants(plans);
    }

    /** Held by one line, ended by at most one, settled no more than held, and found by the sweep in time. */
    private static void assertReservation(InMemoryLedger ledger, Reservation reservation) {
        List<LedgerLine> lines = ledger.lines(reservation.accountId()).stream()
                .filter(l -> l.spendingId().equals(Optional.of(reservation.id())))
                .toList();
        boolean held = reservation.status() == ReservationStatus.HELD;
        assertThat(lines.stream().filter(l -> l.kind() == LedgerKind.HOLD).mapToLong(LedgerLine::amount))
                .as("hold lines of " + reservation.id())
                .containsExactly(-reservation.amount());
        assertThat(lines.stream().filter(l -> l.kind() == LedgerKind.RELEASE).mapToLong(LedgerLine::amount))
                .as("release lines of " + reservation.id())
                .containsExactlyElementsOf(held ? List.of() : List.of(reservation.amount()));
        assertThat(reservation.settledAmount().orElse(0L)).isBetween(0L, reservation.amount());
        long unreturned = ledger.allocations(reservation.id()).stream()
                .mapToLong(Allocation::unreturned)
                .sum();
        assertThat(unreturned).as("tokens " + reservation.id() + " holds").isEqualTo(held ? reservation.amount() : 0);
        if (held) {
            assertThat(ledger.account(reservation.accountId()).dueAt())
                    .as("the account is due by the expiry of " + reservation.id())
                    .isBeforeOrEqualTo(reservation.expiresAt());
        }
    }

    static LedgerCommand<?> open(String accountId, String planId, long balance) {
        return new LedgerCommand.Open(new Account(accountId, "Account", planId, balance, AccountStatus.ACTIVE, T0));
    }

    static LedgerCommand<?> spend(String accountId, long amount, String spendingId) {
        return new LedgerCommand.Spend(new SpendRequest(accountId, amount, Optional.empty()), spendingId);
    }

    static LedgerCommand<?> credit(String accountId, long amount, Optional<Instant> expiresAt) {
        return new LedgerCommand.Credit(accountId, amount, "test", expiresAt);
    }
}
