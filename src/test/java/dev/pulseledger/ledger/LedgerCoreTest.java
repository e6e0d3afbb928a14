package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The ledger's rules, decided without a database (CONTRACT §3 and §6). */
class LedgerCoreTest {
    private static final Instant T0 = Instant.parse("2026-01-31T12:00:00Z");
    private final InMemoryLedger ledger = new InMemoryLedger(Set.of("free"));

    @Test
    void aSpendTakesTokensAndARefusedSpendChangesNothing() {
        ledger.apply(T0, new LedgerCommand.Open(InMemoryLedger.account("acct_a", 100, T0)));

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
        var account = new dev.pulseledger.accounts.Account(
                "acct_x", "X", "gold", 10, dev.pulseledger.accounts.AccountStatus.ACTIVE, T0);

        assertThat(ledger.apply(T0, new LedgerCommand.Open(account))).isEqualTo(new OpenResult.UnknownPlan());
        assertThat(ledger.accountIds()).isEmpty();
    }

    @Test
    void aCreditBeyondTheLimitIsRefusedAndACreditToNoAccountIsNotFound() {
        ledger.apply(T0, new LedgerCommand.Open(InMemoryLedger.account("acct_a", LedgerCore.MAX_BALANCE, T0)));

        assertThat(ledger.apply(T0, new LedgerCommand.Credit("acct_a", 1, "more")))
                .isEqualTo(new CreditResult.BalanceLimitReached());
        assertThat(ledger.apply(T0, new LedgerCommand.Credit("acct_none", 1, "more")))
                .isEqualTo(new CreditResult.AccountNotFound());
    }

    @Test
    void anIdempotentRepeatInTheSameBatchReplaysTheFirstOutcome() {
        ledger.apply(T0, new LedgerCommand.Open(InMemoryLedger.account("acct_a", 100, T0)));
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
        ledger.apply(
                T0,
                List.of(
                        new LedgerCommand.Open(InMemoryLedger.account("acct_a", 100, T0)),
                        new LedgerCommand.Open(InMemoryLedger.account("acct_b", 100, T0))));
        ledger.apply(T0, spend("acct_a", 10, "sp_1"));

        assertThat(ledger.apply(T0, new LedgerCommand.Revert("acct_b", "sp_1"))).isEqualTo(new RevertResult.NotFound());
        assertThat(ledger.balance("acct_a")).isEqualTo(90);
    }

    /** Random batches of spends, reverts and credits over two accounts never break CONTRACT §6. */
    @Test
    void randomBatchesKeepEveryInvariant() {
        for (long seed = 0; seed < 200; seed++) {
            InMemoryLedger random = new InMemoryLedger(Set.of("free"));
            Random rnd = new Random(seed);
            Instant now = T0;
            random.apply(
                    now,
                    List.of(
                            new LedgerCommand.Open(InMemoryLedger.account("acct_a", rnd.nextInt(200), now)),
                            new LedgerCommand.Open(InMemoryLedger.account("acct_b", rnd.nextInt(200), now))));
            List<String> spent = new ArrayList<>();
            for (int batch = 0; batch < 30; batch++) {
                now = now.plus(Duration.ofMinutes(rnd.nextInt(90)));
                List<LedgerCommand> commands = new ArrayList<>();
                for (int i = rnd.nextInt(6); i >= 0; i--) {
                    commands.add(randomCommand(rnd, spent, "sp_" + seed + "_" + batch + "_" + i));
                }
                random.apply(now, commands);
            }
            assertInvariants(random);
        }
    }

    private static LedgerCommand randomCommand(Random rnd, List<String> spent, String newSpendingId) {
        String account = rnd.nextBoolean() ? "acct_a" : "acct_b";
        int pick = rnd.nextInt(10);
        if (pick < 5 || spent.isEmpty()) {
            spent.add(newSpendingId);
            Optional<String> key = rnd.nextInt(4) == 0 ? Optional.of("k" + rnd.nextInt(3)) : Optional.empty();
            return new LedgerCommand.Spend(new SpendRequest(account, 1 + rnd.nextInt(80), key), newSpendingId);
        }
        if (pick < 9) {
            return new LedgerCommand.Revert(account, spent.get(rnd.nextInt(spent.size())));
        }
        return new LedgerCommand.Credit(account, 1 + rnd.nextInt(50), "random");
    }

    static void assertInvariants(InMemoryLedger ledger) {
        for (String account : ledger.accountIds()) {
            long sum = 0;
            for (LedgerLine line : ledger.lines(account)) {
                sum += line.amount();
                assertThat(line.balanceAfter()).as("balance after each line").isEqualTo(sum);
            }
            assertThat(ledger.balance(account)).isNotNegative().isEqualTo(sum);
            for (Spending spending : ledger.spendings(account)) {
                long refunds = ledger.lines(account).stream()
                        .filter(l ->
                                l.kind() == LedgerKind.REVERT && l.spendingId().equals(Optional.of(spending.id())))
                        .count();
                assertThat(refunds).as("refunds of " + spending.id()).isEqualTo(spending.reverted() ? 1 : 0);
            }
        }
    }

    private static LedgerCommand spend(String accountId, long amount, String spendingId) {
        return new LedgerCommand.Spend(new SpendRequest(accountId, amount, Optional.empty()), spendingId);
    }
}
