package dev.pulseledger.ledger.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.events.EventType;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.keys.BudgetPeriod;
import dev.pulseledger.keys.KeyBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * CONTRACT §14's key budgets decided by the core alone: a spend or hold above a budget is refused, commands
 * of one batch see each other's use, what comes back in the window frees room and what comes back of an
 * earlier window does not, a settle counts what it settled, and each level's event comes once a window.
 */
class KeyBudgetRulesTest {
    private static final Instant MONDAY = Instant.parse("2026-05-04T10:00:00Z");
    private static final PlanTerms FREE = new PlanTerms("free", 0, PlanPeriod.MONTH, 0, Map.of());

    private final InMemoryLedger ledger = new InMemoryLedger(FREE);

    @BeforeEach
    void openAccountWithABudgetedKey() {
        ledger.apply(MONDAY, new LedgerCommand.Open(InMemoryLedger.account("acct_a", "free", 10_000, MONDAY)));
        ledger.setBudgets("key_k", List.of(new KeyBudget("default", BudgetPeriod.DAY, 100)));
    }

    @Test
    void aBatchsSpendsSeeEachOthersUseAndTheOneAboveTheBudgetIsRefused() {
        List<LedgerOutcome> outcomes = ledger.apply(
                MONDAY, List.of(spend("sp_1", 60), spend("sp_2", 41), spend("sp_3", 40), unkeyed("sp_4", 500)));
        assertThat(outcomes.get(0)).isInstanceOf(SpendResult.Spent.class);
        assertThat(outcomes.get(1)).isInstanceOfSatisfying(SpendResult.KeyBudgetExceeded.class, over -> {
            assertThat(over.window().used()).isEqualTo(60);
            assertThat(over.window().end()).isEqualTo(Instant.parse("2026-05-05T00:00:00Z"));
        });
        assertThat(outcomes.get(2)).isInstanceOf(SpendResult.Spent.class);
        assertThat(outcomes.get(3)).isInstanceOf(SpendResult.Spent.class);
        assertThat(ledger.balance("acct_a")).isEqualTo(10_000 - 600);
        assertThat(budgetEvents()).containsExactly(EventType.KEY_BUDGET_WARNING, EventType.KEY_BUDGET_EXHAUSTED);
    }

    @Test
    void aRevertInTheWindowGivesBackAndOneOfAnEarlierWindowDoesNot() {
        ledger.apply(MONDAY, spend("sp_1", 100));
        ledger.apply(MONDAY, new LedgerCommand.Revert("acct_a", "sp_1", Optional.of(30L), Optional.empty()));
        assertThat(ledger.apply(MONDAY, spend("sp_2", 31))).isInstanceOf(SpendResult.KeyBudgetExceeded.class);
        assertThat(ledger.apply(MONDAY, spend("sp_3", 30))).isInstanceOf(SpendResult.Spent.class);

        Instant tuesday = MONDAY.plus(Duration.ofDays(1));
        assertThat(ledger.apply(tuesday, spend("sp_4", 100))).isInstanceOf(SpendResult.Spent.class);
        ledger.apply(tuesday, new LedgerCommand.Revert("acct_a", "sp_1"));
        assertThat(ledger.apply(tuesday, spend("sp_5", 1))).isInstanceOf(SpendResult.KeyBudgetExceeded.class);
        // Each day warned and was exhausted once, though Monday fell back below 80 % and rose again.
        assertThat(budgetEvents())
                .containsExactly(
                        EventType.KEY_BUDGET_WARNING,
                        EventType.KEY_BUDGET_EXHAUSTED,
                        EventType.KEY_BUDGET_WARNING,
                        EventType.KEY_BUDGET_EXHAUSTED);
    }

    @Test
    void aHoldCountsItsReleaseGivesBackAndASettleCountsWhatItSettledInTheHoldsWindow() {
        assertThat(ledger.apply(MONDAY, reserve("rsv_1", 80))).isInstanceOf(ReserveResult.Reserved.class);
        assertThat(ledger.apply(MONDAY, reserve("rsv_2", 21))).isInstanceOf(ReserveResult.KeyBudgetExceeded.class);
        ledger.apply(MONDAY, new LedgerCommand.Release("acct_a", "rsv_1"));
        assertThat(ledger.apply(MONDAY, reserve("rsv_3", 90))).isInstanceOf(ReserveResult.Reserved.class);

        // Settled after midnight: the 25 count in Monday's window, the hold's; Tuesday's is untouched.
        Instant tuesday = Instant.parse("2026-05-05T00:01:00Z");
        ledger.apply(tuesday, new LedgerCommand.Settle("acct_a", "rsv_3", Optional.of(25L), "sp_settled"));
        assertThat(ledger.spendings("acct_a"))
                .singleElement()
                .satisfies(s -> assertThat(s.charge()).contains(new KeyCharge("key_k", MONDAY)));
        assertThat(ledger.apply(tuesday, spend("sp_1", 100))).isInstanceOf(SpendResult.Spent.class);
    }

    private static LedgerCommand.Spend spend(String id, long amount) {
        return new LedgerCommand.Spend(
                new SpendRequest("acct_a", amount, Optional.empty(), "default", Optional.of("key_k")), id);
    }

    private static LedgerCommand.Spend unkeyed(String id, long amount) {
        return new LedgerCommand.Spend(new SpendRequest("acct_a", amount, Optional.empty()), id);
    }

    private static LedgerCommand.Reserve reserve(String id, long amount) {
        return new LedgerCommand.Reserve(
                "acct_a", amount, Duration.ofHours(20), Optional.empty(), id, "default", Optional.of("key_k"));
    }

    private List<EventType> budgetEvents() {
        return ledger.events().stream()
                .map(NewEvent::type)
                .filter(t -> t == EventType.KEY_BUDGET_WARNING || t == EventType.KEY_BUDGET_EXHAUSTED)
                .toList();
    }
}
