package dev.pulseledger.ledger;

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
    void anotherAccountsSpendingIsNotFound() {
        ledger.apply(T0, List.of(open("acct_a", "free", 100), open("acct_b", "free", 100)));
        ledger.apply(T0, spend("acct_a", 10, "sp_1"));

        assertThat(ledger.apply(T0, new LedgerCommand.Revert("acct_b", "sp_1"))).isEqualTo(new RevertResult.NotFound());
        assertThat(ledger.balance("acct_a")).isEqualTo(90);
    }

    /**
     * Random batches of spends, reverts, credits (some expiring), plan changes and touches over two
     * accounts and months of time never break CONTRACT §6 or the grant invariants of §7.
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
            for (int batch = 0; batch < 40; batch++) {
                now = now.plus(Duration.ofHours(rnd.nextInt(60)));
                List<LedgerCommand> commands = new ArrayList<>();
                for (int i = rnd.nextInt(6); i >= 0; i--) {
                    commands.add(randomCommand(rnd, now, spent, "sp_" + seed + "_" + batch + "_" + i));
                }
                random.apply(now, commands);
                assertInvariants(random);
            }
        }
    }

    private static LedgerCommand randomCommand(Random rnd, Instant now, List<String> spent, String newSpendingId) {
        String account = rnd.nextBoolean() ? "acct_a" : "acct_b";
        int pick = rnd.nextInt(20);
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
        return new LedgerCommand.Touch(account);
    }

    /** §6.1, §6.2 and §6.4 on every account, and §7's grant invariants on every grant. */
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
                long held = ledger.spendings(account).stream()
                        .flatMap(s -> ledger.allocations(s.id()).stream())
                        .filter(a -> a.grantId().equals(grant.id()))
                        .mapToLong(Allocation::unreturned)
                        .sum();
                assertThat(grant.remaining() + grant.expired() + held)
                        .as("grant " + grant.id() + ": remaining + expired + held")
                        .isEqualTo(grant.amount());
                inGrants += grant.remaining();
            }
            assertThat(inGrants).as("tokens in grants of " + account).isEqualTo(ledger.balance(account));
            for (Spending spending : ledger.spendings(account)) {
                long refunds = ledger.lines(account).stream()
                        .filter(l ->
                                l.kind() == LedgerKind.REVERT && l.spendingId().equals(Optional.of(spending.id())))
                        .count();
                assertThat(refunds).as("refunds of " + spending.id()).isEqualTo(spending.reverted() ? 1 : 0);
                long drawn = ledger.allocations(spending.id()).stream()
                        .mapToLong(Allocation::amount)
                        .sum();
                assertThat(drawn).as("what " + spending.id() + " drew").isEqualTo(spending.amount());
            }
        }
    }

    static LedgerCommand open(String accountId, String planId, long balance) {
        return new LedgerCommand.Open(new Account(accountId, "Account", planId, balance, AccountStatus.ACTIVE, T0));
    }

    static LedgerCommand spend(String accountId, long amount, String spendingId) {
        return new LedgerCommand.Spend(new SpendRequest(accountId, amount, Optional.empty()), spendingId);
    }

    static LedgerCommand credit(String accountId, long amount, Optional<Instant> expiresAt) {
        return new LedgerCommand.Credit(accountId, amount, "test", expiresAt);
    }
}
