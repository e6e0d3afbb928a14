package dev.pulseledger.ledger.core;

import static dev.pulseledger.ledger.core.LedgerCoreTest.assertInvariants;
import static dev.pulseledger.ledger.core.LedgerCoreTest.credit;
import static dev.pulseledger.ledger.core.LedgerCoreTest.spend;
import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.events.EventType;
import dev.pulseledger.events.NewEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** CONTRACT §7 decided by the core with a controlled clock: periods, renewals, grants and expiry. */
class SubscriptionRulesTest {
    private static final PlanTerms MONTHLY = new PlanTerms("pro", 1000, PlanPeriod.MONTH, 0);
    private static final PlanTerms ROLLING = new PlanTerms("rolling", 1000, PlanPeriod.MONTH, 300);
    private static final PlanTerms WEEKLY = new PlanTerms("weekly", 70, PlanPeriod.WEEK, 0);

    private final InMemoryLedger ledger = new InMemoryLedger(LedgerCoreTest.FREE, MONTHLY, ROLLING, WEEKLY);

    private void openAt(Instant at, String planId, long balance) {
        ledger.apply(at, new LedgerCommand.Open(new Account("acct_a", "A", planId, balance, AccountStatus.ACTIVE, at)));
    }

    private Period periodAt(Instant at) {
        ledger.apply(at, new LedgerCommand.Touch("acct_a"));
        return ledger.account("acct_a").period().orElseThrow();
    }

    @ParameterizedTest(name = "{0}: anchored {1}, then {2}, {3}, {4}")
    @CsvSource({
        "month, 2026-01-31T09:00:00Z, 2026-02-28T09:00:00Z, 2026-03-31T09:00:00Z, 2026-04-30T09:00:00Z",
        "month, 2028-01-31T09:00:00Z, 2028-02-29T09:00:00Z, 2028-03-31T09:00:00Z, 2028-04-30T09:00:00Z",
        "month, 2026-03-30T00:00:00Z, 2026-04-30T00:00:00Z, 2026-05-30T00:00:00Z, 2026-06-30T00:00:00Z",
        "year, 2028-02-29T12:00:00Z, 2029-02-28T12:00:00Z, 2030-02-28T12:00:00Z, 2031-02-28T12:00:00Z",
        "day, 2026-12-31T23:30:00Z, 2027-01-01T23:30:00Z, 2027-01-02T23:30:00Z, 2027-01-03T23:30:00Z",
        "week, 2026-02-26T08:00:00Z, 2026-03-05T08:00:00Z, 2026-03-12T08:00:00Z, 2026-03-19T08:00:00Z"
    })
    void periodsAreClampedToTheirMonthAndNeverDrift(
            String period, Instant anchor, Instant first, Instant second, Instant third) {
        PlanPeriod length = PlanPeriod.fromWire(period).orElseThrow();
        ledger.updatePlan(new PlanTerms("pro", 10, length, 0));
        openAt(anchor, "pro", 0);

        assertThat(ledger.account("acct_a").period()).contains(new Period(anchor, first));
        assertThat(periodAt(first)).isEqualTo(new Period(first, second));
        assertThat(periodAt(second.minusMillis(1))).isEqualTo(new Period(first, second));
        assertThat(periodAt(second)).isEqualTo(new Period(second, third));
        assertThat(ledger.lines("acct_a"))
                .extracting(LedgerLine::kind)
                .containsOnly(LedgerKind.ALLOWANCE, LedgerKind.EXPIRE);
        assertInvariants(ledger);
    }

    @Test
    void anAccountIdleForFivePeriodsGetsOneRenewalForTheCurrentPeriod() {
        Instant anchor = Instant.parse("2026-01-15T00:00:00Z");
        openAt(anchor, "pro", 0);

        ledger.apply(Instant.parse("2026-06-20T00:00:00Z"), spend("acct_a", 1, "sp_1"));

        assertThat(ledger.lines("acct_a"))
                .extracting(LedgerLine::kind, LedgerLine::amount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.ALLOWANCE, 1000L),
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.EXPIRE, -1000L),
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.ALLOWANCE, 1000L),
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.SPEND, -1L));
        assertThat(ledger.account("acct_a").period())
                .contains(new Period(Instant.parse("2026-06-15T00:00:00Z"), Instant.parse("2026-07-15T00:00:00Z")));
        assertThat(events(EventType.ALLOWANCE_RENEWED)).hasSize(1);
        assertThat(ledger.balance("acct_a")).isEqualTo(999);
        assertInvariants(ledger);
    }

    @Test
    void aRenewalHappensOncePerPeriodHoweverOftenTheAccountIsTouched() {
        Instant anchor = Instant.parse("2026-01-15T00:00:00Z");
        openAt(anchor, "pro", 0);
        Instant end = Instant.parse("2026-02-15T00:00:00Z");

        for (int i = 0; i < 5; i++) {
            ledger.apply(
                    end.plusSeconds(i), List.of(new LedgerCommand.Touch("acct_a"), new LedgerCommand.Touch("acct_a")));
        }

        assertThat(events(EventType.ALLOWANCE_RENEWED)).hasSize(1);
        assertThat(ledger.lines("acct_a"))
                .filteredOn(l -> l.kind() == LedgerKind.ALLOWANCE)
                .hasSize(2);
        assertThat(ledger.balance("acct_a")).isEqualTo(1000);
    }

    @Test
    void rolloverCarriesAtMostItsCapAndTheRestExpires() {
        Instant anchor = Instant.parse("2026-03-01T00:00:00Z");
        openAt(anchor, "rolling", 0);
        ledger.apply(anchor.plusSeconds(60), spend("acct_a", 200, "sp_1"));

        ledger.apply(Instant.parse("2026-04-01T00:00:00Z"), new LedgerCommand.Touch("acct_a"));

        assertThat(ledger.balance("acct_a")).isEqualTo(1300); // 300 carried, 500 expired, 1000 granted
        assertThat(ledger.lines("acct_a"))
                .filteredOn(l -> l.kind() == LedgerKind.EXPIRE)
                .extracting(LedgerLine::amount)
                .containsExactly(-500L);
        NewEvent renewed = events(EventType.ALLOWANCE_RENEWED).getFirst();
        assertThat(renewed.data())
                .hasFieldOrPropertyWithValue("rolledOver", 300L)
                .hasFieldOrPropertyWithValue("expired", 500L);
        // A carried token is spent before the new period's: it is older and expires at the same time.
        ledger.apply(Instant.parse("2026-04-02T00:00:00Z"), spend("acct_a", 300, "sp_2"));
        assertThat(ledger.allocations("sp_2"))
                .singleElement()
                .satisfies(a -> assertThat(a.amount()).isEqualTo(300));
        // Next period: nothing of the old grant is left, and the new one carries up to the cap again.
        ledger.apply(Instant.parse("2026-05-01T00:00:00Z"), new LedgerCommand.Touch("acct_a"));
        assertThat(ledger.balance("acct_a")).isEqualTo(1300);
        assertInvariants(ledger);
    }

    @Test
    void aPlanChangeMidPeriodExpiresTheOldAllowanceWithoutRolloverAndStartsANewPeriodNow() {
        Instant anchor = Instant.parse("2026-03-01T00:00:00Z");
        openAt(anchor, "rolling", 50);
        ledger.apply(anchor.plusSeconds(60), spend("acct_a", 100, "sp_1"));
        Instant change = Instant.parse("2026-03-17T10:30:00Z");

        PlanChangeResult result =
                (PlanChangeResult) ledger.apply(change, new LedgerCommand.ChangePlan("acct_a", "weekly"));

        assertThat(result).isEqualTo(new PlanChangeResult.Changed(new Period(change, change.plus(Duration.ofDays(7)))));
        assertThat(ledger.balance("acct_a")).isEqualTo(50 + 70); // the credit stays; 900 allowance expired
        assertThat(ledger.lines("acct_a"))
                .extracting(LedgerLine::kind, LedgerLine::amount)
                .endsWith(
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.EXPIRE, -900L),
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.ALLOWANCE, 70L));
        assertThat(ledger.account("acct_a").plan().planId()).isEqualTo("weekly");
        assertThat(events(EventType.ALLOWANCE_RENEWED).getLast().data())
                .hasFieldOrPropertyWithValue("reason", "plan_change");
        assertInvariants(ledger);
    }

    @Test
    void aCreditExpiresAtExactlyItsInstant() {
        openAt(T("2026-03-01T00:00:00Z"), "free", 0);
        Instant expiry = T("2026-03-10T00:00:00Z");
        ledger.apply(T("2026-03-02T00:00:00Z"), credit("acct_a", 100, Optional.of(expiry)));

        ledger.apply(expiry.minusMillis(1), spend("acct_a", 10, "sp_1"));
        assertThat(ledger.balance("acct_a")).isEqualTo(90);

        SpendResult atExpiry = (SpendResult) ledger.apply(expiry, spend("acct_a", 10, "sp_2"));

        assertThat(atExpiry).isEqualTo(new SpendResult.InsufficientBalance(0, 10, false));
        assertThat(ledger.lines("acct_a").getLast().kind()).isEqualTo(LedgerKind.EXPIRE);
        assertThat(events(EventType.CREDITS_EXPIRED).getFirst().data()).hasFieldOrPropertyWithValue("amount", 90L);
        assertThat(ledger.apply(expiry, credit("acct_a", 5, Optional.of(expiry))))
                .isEqualTo(new CreditResult.ExpiryNotInFuture());
        assertInvariants(ledger);
    }

    @Test
    void aSpendDrawsFromTheSoonestExpiringGrantFirstAndNeverExpiringOnesLast() {
        Instant anchor = T("2026-03-01T00:00:00Z");
        openAt(anchor, "pro", 500); // allowance 1000 until Apr 1, opening credit 500 never expires
        ledger.apply(anchor, credit("acct_a", 300, Optional.of(T("2026-06-01T00:00:00Z"))));
        String allowance = grant(GrantKind.ALLOWANCE).id();
        String opening = ledger.grants("acct_a").get(1).id();
        String expiring = ledger.grants("acct_a").get(2).id();

        ledger.apply(anchor.plusSeconds(1), spend("acct_a", 1200, "sp_1"));
        ledger.apply(anchor.plusSeconds(2), spend("acct_a", 200, "sp_2"));

        assertThat(ledger.allocations("sp_1"))
                .extracting(Allocation::grantId, Allocation::amount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(allowance, 1000L),
                        org.assertj.core.groups.Tuple.tuple(expiring, 200L));
        assertThat(ledger.allocations("sp_2"))
                .extracting(Allocation::grantId, Allocation::amount)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(expiring, 100L),
                        org.assertj.core.groups.Tuple.tuple(opening, 100L));
        assertInvariants(ledger);
    }

    @Test
    void tokensRevertedIntoAnExpiredGrantExpireAgainAtOnce() {
        Instant anchor = T("2026-03-01T00:00:00Z");
        openAt(anchor, "free", 40);
        Instant expiry = T("2026-03-05T00:00:00Z");
        ledger.apply(anchor, credit("acct_a", 100, Optional.of(expiry)));
        ledger.apply(anchor.plusSeconds(1), spend("acct_a", 120, "sp_1")); // 100 from the credit, 20 from the opening
        ledger.apply(expiry.plusSeconds(1), new LedgerCommand.Touch("acct_a"));
        assertThat(ledger.balance("acct_a")).isEqualTo(20);

        RevertResult result =
                (RevertResult) ledger.apply(expiry.plusSeconds(2), new LedgerCommand.Revert("acct_a", "sp_1"));

        assertThat(result)
                .isInstanceOfSatisfying(
                        RevertResult.Reverted.class,
                        r -> assertThat(r.balance()).isEqualTo(40));
        assertThat(ledger.lines("acct_a"))
                .extracting(LedgerLine::kind, LedgerLine::amount, LedgerLine::balanceAfter)
                .endsWith(
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.REVERT, 120L, 140L),
                        org.assertj.core.groups.Tuple.tuple(LedgerKind.EXPIRE, -100L, 40L));
        assertThat(events(EventType.CREDITS_EXPIRED).getLast().data())
                .hasFieldOrPropertyWithValue("spendingId", "sp_1");
        assertThat(ledger.apply(expiry.plusSeconds(3), new LedgerCommand.Revert("acct_a", "sp_1")))
                .isInstanceOfSatisfying(
                        RevertResult.Reverted.class,
                        r -> assertThat(r.balance()).isEqualTo(40));
        assertInvariants(ledger);
    }

    @Test
    void aPlanWithoutAllowanceStillHasPeriodsButGrantsNothing() {
        openAt(T("2026-03-01T00:00:00Z"), "free", 10);

        assertThat(periodAt(T("2026-04-02T00:00:00Z")))
                .isEqualTo(new Period(T("2026-04-01T00:00:00Z"), T("2026-05-01T00:00:00Z")));
        assertThat(ledger.balance("acct_a")).isEqualTo(10);
        assertThat(events(EventType.ALLOWANCE_RENEWED)).isEmpty();
    }

    private Grant grant(GrantKind kind) {
        return ledger.grants("acct_a").stream()
                .filter(g -> g.kind() == kind)
                .findFirst()
                .orElseThrow();
    }

    private List<NewEvent> events(EventType type) {
        return ledger.events().stream().filter(e -> e.type() == type).toList();
    }

    private static Instant T(String text) {
        return Instant.parse(text);
    }
}
