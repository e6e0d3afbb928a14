package dev.pulseledger.ledger.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.PoolAllowance;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** CONTRACT §14 decided by the core: each pool draws, renews and returns on its own. */
class PoolRulesTest {
    private static final Instant START = Instant.parse("2026-05-01T00:00:00Z");
    private static final PlanTerms STUDIO =
            new PlanTerms("studio", 100, PlanPeriod.DAY, 0, Map.of("images", new PoolAllowance(50, 20)));

    private final InMemoryLedger ledger = new InMemoryLedger(STUDIO);

    @Test
    void aSpendDrawsOnlyFromItsPoolAndEachPoolRenewsWithItsOwnRollover() {
        ledger.apply(
                START, new LedgerCommand.Open(new Account("acct_a", "A", "studio", 0, AccountStatus.ACTIVE, START)));
        assertThat(ledger.balance("acct_a")).isEqualTo(100);
        assertThat(ledger.balance("acct_a", "images")).isEqualTo(50);

        LedgerOutcome refused = ledger.apply(
                START, new LedgerCommand.Spend(new SpendRequest("acct_a", 51, Optional.empty(), "images"), "sp_1"));
        assertThat(refused).isEqualTo(new SpendResult.InsufficientBalance(50, 51, false));
        LedgerOutcome unknown = ledger.apply(
                START, new LedgerCommand.Spend(new SpendRequest("acct_a", 1, Optional.empty(), "video"), "sp_2"));
        assertThat(unknown).isEqualTo(new SpendResult.PoolNotFound("video"));
        ledger.apply(
                START, new LedgerCommand.Spend(new SpendRequest("acct_a", 10, Optional.empty(), "images"), "sp_3"));
        assertThat(ledger.balance("acct_a")).isEqualTo(100);
        assertThat(ledger.balance("acct_a", "images")).isEqualTo(40);
        assertThat(ledger.lines("acct_a").getLast())
                .extracting(LedgerLine::pool, LedgerLine::balanceAfter)
                .containsExactly("images", 40L);

        // A day on: images keeps 20 of its 40 (its rollover) and gets 50; default keeps nothing and gets 100.
        ledger.apply(START.plus(Duration.ofDays(1)), new LedgerCommand.Touch("acct_a"));
        assertThat(ledger.balance("acct_a")).isEqualTo(100);
        assertThat(ledger.balance("acct_a", "images")).isEqualTo(70);
    }

    @Test
    void aSeventeenthPoolIsRefusedAndChangesNothing() {
        ledger.apply(
                START, new LedgerCommand.Open(new Account("acct_a", "A", "studio", 0, AccountStatus.ACTIVE, START)));
        for (int i = 1; i <= 14; i++) { // with default and the plan's images: 16
            assertThat(ledger.apply(START, new LedgerCommand.Credit("acct_a", 5, "", Optional.empty(), "p" + i)))
                    .isInstanceOf(CreditResult.Credited.class);
        }
        int lines = ledger.lines("acct_a").size();
        assertThat(ledger.apply(START, new LedgerCommand.Credit("acct_a", 5, "", Optional.empty(), "p15")))
                .isEqualTo(new CreditResult.PoolLimitReached(16));
        assertThat(ledger.lines("acct_a")).hasSize(lines);
        assertThat(ledger.apply(START, new LedgerCommand.Credit("acct_a", 5, "", Optional.empty(), "p3")))
                .isInstanceOf(CreditResult.Credited.class);
    }
}
