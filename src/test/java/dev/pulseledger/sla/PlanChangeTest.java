package dev.pulseledger.sla;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §13, plan changes within a period: {@code now} keeps the period, expires what is left of the old
 * allowance and grants {@code floor(new allowance × time left / period length)}; {@code period_end} waits on
 * the account and the renewal at the boundary applies it once, on every node; {@code DELETE} cancels it; a
 * change racing the renewal and concurrent spends leaves no negative balance and no period with two
 * allowances at once; bad input changes nothing.
 */
class PlanChangeTest {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration DAY = Duration.ofDays(1);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void nowUpgradesAndDowngradesWithAProratedAllowanceInTheSamePeriod(TestStore store) {
        TestClock clock = new TestClock(T0);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            plans(admin);
            Fixtures fixtures = new Fixtures(admin);
            String accountId = fixtures.account("basic", 0);
            Api caller = node.caller(fixtures.key(accountId));
            clock.set(T0.plus(HOUR));
            Reply spent = caller.post("/api/tokens/spend/500");
            assertThat(spent.status()).as(spent.toString()).isEqualTo(201);
            String spendingId = spent.json().path("spendingId").asText();

            // 6 h into the day: 2400 - 500 = 1900 of basic's allowance expire, pro grants 4800 × 18/24 = 3600.
            clock.set(T0.plus(HOUR.multipliedBy(6)));
            Reply up = change(admin, accountId, "pro", "now");

            assertThat(up.status()).as(up.toString()).isEqualTo(200);
            assertThat(up.json().path("previousPlanId").asText()).isEqualTo("basic");
            assertThat(up.json().path("expired").asLong()).isEqualTo(1900);
            assertThat(up.json().path("granted").asLong()).isEqualTo(3600);
            assertThat(up.json().path("balance").asLong()).isEqualTo(3600);
            assertThat(up.json().path("currentPeriod").path("start").asText()).isEqualTo("2026-03-01T00:00:00Z");
            assertThat(up.json().path("currentPeriod").path("end").asText()).isEqualTo("2026-03-02T00:00:00Z");
            JsonNode plan = caller.get("/api/tokens/plan").json();
            assertThat(plan.path("id").asText()).isEqualTo("pro");
            assertThat(plan.path("currentPeriod").path("start").asText()).isEqualTo("2026-03-01T00:00:00Z");
            JsonNode balance = caller.get("/api/tokens/balance").json();
            assertThat(balance.path("allowance").path("granted").asLong()).isEqualTo(3600);
            assertThat(balance.path("allowance").path("remaining").asLong()).isEqualTo(3600);
            // The 500 spent came from basic's allowance, which the change ended: a revert returns them to it and
            // they expire again at once, so no old allowance comes back.
            Reply reverted = caller.post("/api/tokens/spendings/" + spendingId + "/revert");
            assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
            assertThat(caller.balance()).isEqualTo(3600);

            // 18 h in: a downgrade; 3600 - 100 = 3500 of pro's expire, basic grants 2400 × 6/24 = 600.
            assertThat(caller.post("/api/tokens/spend/100").status()).isEqualTo(201);
            clock.set(T0.plus(HOUR.multipliedBy(18)));
            Reply down = change(admin, accountId, "basic", "now");

            assertThat(down.status()).as(down.toString()).isEqualTo(200);
            assertThat(down.json().path("expired").asLong()).isEqualTo(3500);
            assertThat(down.json().path("granted").asLong()).isEqualTo(600);
            assertThat(caller.balance()).isEqualTo(600);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();

            // The next renewal is basic's, on the same boundaries: its 600 unused expire, 2400 granted.
            clock.set(T0.plus(DAY).plusSeconds(60));
            assertThat(caller.balance()).isEqualTo(2400);
            assertThat(caller.get("/api/tokens/plan")
                            .json()
                            .path("currentPeriod")
                            .path("start")
                            .asText())
                    .isEqualTo("2026-03-02T00:00:00Z");
            assertThat(SlaCreditsTest.eventCount(node.databaseUrl(), "plan.changed"))
                    .isEqualTo(2);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void periodEndWaitsAndTheRenewalAppliesItOnceOnEveryNode(TestStore store) {
        TestClock clock = new TestClock(T0);
        String url = store.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            nodes.addAll(startNodes(store, url, clock));
            Api admin = nodes.getFirst().admin();
            plans(admin);
            Fixtures fixtures = new Fixtures(admin);
            String accountId = fixtures.account("basic", 0);
            Api caller = nodes.getLast().caller(fixtures.key(accountId));
            clock.set(T0.plus(HOUR.multipliedBy(12)));

            Reply first = change(admin, accountId, "pro", "period_end");
            assertThat(first.status()).as(first.toString()).isEqualTo(200);
            assertThat(first.json().path("pendingChange").path("at").asText()).isEqualTo("2026-03-02T00:00:00Z");
            Reply second = change(admin, accountId, "max", "period_end");
            assertThat(second.json().path("replacedPlanId").asText()).isEqualTo("pro");

            for (JsonNode view : List.of(
                    admin.get("/admin/accounts/" + accountId).json(),
                    caller.get("/api/tokens/plan").json(),
                    caller.get("/api/tokens/balance").json())) {
                assertThat(view.path("pendingChange").path("planId").asText()).isEqualTo("max");
                assertThat(view.path("pendingChange").path("at").asText()).isEqualTo("2026-03-02T00:00:00Z");
            }
            assertThat(caller.balance()).isEqualTo(2400);
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("planId")
                            .asText())
                    .isEqualTo("basic");

            // Past the boundary, every node's background renewal races to apply it: once.
            clock.set(T0.plus(DAY).plusSeconds(30));
            Waiting.until(
                    "the renewal applies the change",
                    () -> admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("planId")
                            .asText()
                            .equals("max"));

            JsonNode account = admin.get("/admin/accounts/" + accountId).json();
            assertThat(account.has("pendingChange")).isFalse();
            assertThat(account.path("balance").asLong()).isEqualTo(10_000);
            assertThat(account.path("currentPeriod").path("start").asText()).isEqualTo("2026-03-02T00:00:00Z");
            assertThat(SlaCreditsTest.eventCount(url, "plan.changed")).isEqualTo(1);
            assertThat(SlaCreditsTest.eventCount(url, "plan.change_scheduled")).isEqualTo(2);
            assertThat(allowanceGrants(url, accountId))
                    .containsExactly("2026-03-01T00:00:00Z 2400", "2026-03-02T00:00:00Z 10000");
            assertThat(admin.delete("/admin/accounts/" + accountId + "/plan-change")
                            .code())
                    .isEqualTo("plan_change_not_found");
            // The day after renews on max, with no change left to apply.
            clock.set(T0.plus(DAY.multipliedBy(2)).plusSeconds(30));
            assertThat(caller.balance()).isEqualTo(10_000);
            assertThat(SlaCreditsTest.eventCount(url, "plan.changed")).isEqualTo(1);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deleteCancelsTheWaitingChange(TestStore store) {
        TestClock clock = new TestClock(T0);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            plans(admin);
            String accountId = new Fixtures(admin).account("basic", 0);
            assertThat(change(admin, accountId, "pro", "period_end").status()).isEqualTo(200);

            Reply cancelled = admin.delete("/admin/accounts/" + accountId + "/plan-change");

            assertThat(cancelled.status()).as(cancelled.toString()).isEqualTo(200);
            assertThat(cancelled.json().path("cancelled").path("planId").asText())
                    .isEqualTo("pro");
            Reply again = admin.delete("/admin/accounts/" + accountId + "/plan-change");
            assertThat(again.status()).isEqualTo(404);
            assertThat(again.code()).isEqualTo("plan_change_not_found");
            assertThat(admin.delete("/admin/accounts/acct_nope/plan-change").code())
                    .isEqualTo("account_not_found");
            assertThat(admin.get("/admin/accounts/" + accountId).json().has("pendingChange"))
                    .isFalse();
            clock.set(T0.plus(DAY).plusSeconds(30));
            JsonNode account = admin.get("/admin/accounts/" + accountId).json();
            assertThat(account.path("planId").asText()).isEqualTo("basic");
            assertThat(account.path("balance").asLong()).isEqualTo(2400);
            assertThat(SlaCreditsTest.eventCount(node.databaseUrl(), "plan.changed"))
                    .isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badInputIsRefusedAndChangesNothing(TestStore store) {
        TestClock clock = new TestClock(T0);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            plans(admin);
            Fixtures fixtures = new Fixtures(admin);
            String accountId = fixtures.account("basic", 0);
            String path = "/admin/accounts/" + accountId + "/plan-change";
            clock.set(T0.plus(HOUR));
            String before = admin.get("/admin/accounts/" + accountId).text();
            int lines = ledger(admin, accountId).size();

            assertRefused(admin.post(path, Map.of("planId", "nope", "when", "now")), 422, "unknown_plan", "");
            assertRefused(admin.post(path, Map.of("planId", "nope", "when", "period_end")), 422, "unknown_plan", "");
            assertRefused(admin.post(path, Map.of("planId", "pro", "when", "later")), 400, "invalid_request", "when");
            assertRefused(admin.post(path, Map.of("planId", "pro", "when", 1)), 400, "invalid_request", "when");
            assertRefused(admin.post(path, Map.of("planId", "pro")), 400, "invalid_request", "when");
            assertRefused(admin.post(path, Map.of("when", "now")), 400, "invalid_request", "planId");
            assertRefused(admin.post(path, Map.of("planId", "Pro!", "when", "now")), 400, "invalid_request", "planId");
            assertRefused(admin.post(path, Map.of("planId", 7, "when", "now")), 400, "invalid_request", "planId");
            assertRefused(
                    admin.post(path, Map.of("planId", "pro", "when", "now", "extra", 1)),
                    400,
                    "invalid_request",
                    "extra");
            assertRefused(admin.post(path, "{\"planId\":"), 400, "invalid_json", "");
            assertRefused(admin.post(path, "[]"), 400, "invalid_json", "");
            assertRefused(admin.send("POST", path, "x".repeat(70_000), Map.of()), 413, "payload_too_large", "");
            assertRefused(admin.post(path, Map.of("planId", "basic", "when", "now")), 409, "plan_unchanged", "");
            assertRefused(admin.post(path, Map.of("planId", "basic", "when", "period_end")), 409, "plan_unchanged", "");
            assertRefused(
                    admin.post("/admin/accounts/acct_nope/plan-change", Map.of("planId", "pro", "when", "now")),
                    404,
                    "account_not_found",
                    "");
            assertRefused(admin.delete(path), 404, "plan_change_not_found", "");
            Api caller = node.caller(fixtures.key(accountId));
            assertThat(caller.post(path, Map.of("planId", "pro", "when", "now")).status())
                    .isEqualTo(403);

            assertThat(admin.get("/admin/accounts/" + accountId).text()).isEqualTo(before);
            assertThat(ledger(admin, accountId)).hasSize(lines);
            assertThat(SlaCreditsTest.eventCount(node.databaseUrl(), "plan.changed"))
                    .isZero();
            assertThat(SlaCreditsTest.eventCount(node.databaseUrl(), "plan.change_scheduled"))
                    .isZero();
        }
    }

    /**
     * Spends race a {@code now} change made at the very instant the period renews (frozen clock), then a
     * {@code period_end} change racing the next renewal: every balance stays whole, {@code verify} is clean,
     * and each period has one renewal allowance, superseded only by a change's grant after it ended.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void changesRacingTheRenewalAndSpendsKeepEveryPeriodToOneAllowance(TestStore store) {
        TestClock clock = new TestClock(T0);
        String url = store.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            nodes.addAll(startNodes(store, url, clock));
            Api admin = nodes.getFirst().admin();
            plans(admin);
            Fixtures fixtures = new Fixtures(admin);
            String accountId = fixtures.account("basic", 0);
            String key = fixtures.key(accountId);
            AtomicBoolean spending = new AtomicBoolean(true);
            List<CompletableFuture<List<Integer>>> spenders = Simultaneously.start(6, i -> {
                Api caller = nodes.get(i % nodes.size()).caller(key);
                List<Integer> statuses = new ArrayList<>();
                while (spending.get()) {
                    statuses.add(caller.post("/api/tokens/spend/7").status());
                }
                return statuses;
            });

            // At the boundary itself: the renewal and the change race, and the change's grant starts after it.
            clock.set(T0.plus(DAY));
            List<Reply> changes = Simultaneously.run(
                    2,
                    i -> i == 0
                            ? change(nodes.getLast().admin(), accountId, "pro", "now")
                            : nodes.getFirst().admin().get("/admin/accounts/" + accountId));
            assertThat(changes.getFirst().status())
                    .as(changes.getFirst().toString())
                    .isEqualTo(200);
            assertThat(changes.getFirst().json().path("granted").asLong()).isEqualTo(4800);
            clock.set(T0.plus(DAY).plus(HOUR.multipliedBy(12)));
            assertThat(change(admin, accountId, "basic", "now")
                            .json()
                            .path("granted")
                            .asLong())
                    .isEqualTo(1200);
            assertThat(change(admin, accountId, "max", "period_end").status()).isEqualTo(200);
            clock.set(T0.plus(DAY.multipliedBy(2)));
            Reply late = change(nodes.getLast().admin(), accountId, "pro", "period_end");
            Waiting.until(
                    "the renewal applies the waiting change",
                    () -> admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("planId")
                            .asText()
                            .equals("max"));
            spending.set(false);
            List<Integer> statuses =
                    spenders.stream().flatMap(f -> f.join().stream()).toList();

            assertThat(statuses).isNotEmpty().allMatch(s -> s == 201 || s == 402);
            // The late change either beat the renewal (and waits for the next end) or came after it.
            assertThat(late.status()).as(late.toString()).isIn(200, 409);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
            assertThat(renewalsPerPeriod(url, accountId)).allMatch(count -> count == 1);
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isNotNegative();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    /** Three nodes on one PostgreSQL database, or the one node SQLite allows (docs/OPERATIONS.md). */
    static List<TestNode> startNodes(TestStore store, String url, TestClock clock) {
        List<TestNode> nodes = new ArrayList<>();
        for (int i = 0; i < (store == TestStore.POSTGRESQL ? 3 : 1); i++) {
            nodes.add(TestNode.start(url, clock));
        }
        return nodes;
    }

    private static void plans(Api admin) {
        for (Map<String, Object> plan : List.of(
                Map.<String, Object>of("id", "basic", "name", "Basic", "allowance", 2400, "period", "day"),
                Map.<String, Object>of("id", "pro", "name", "Pro", "allowance", 4800, "period", "day"),
                Map.<String, Object>of("id", "max", "name", "Max", "allowance", 10_000, "period", "day"))) {
            Reply reply = admin.post("/admin/plans", plan);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        }
    }

    static Reply change(Api admin, String accountId, String planId, String when) {
        return admin.post("/admin/accounts/" + accountId + "/plan-change", Map.of("planId", planId, "when", when));
    }

    private static void assertRefused(Reply reply, int status, String code, String field) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.code()).as(reply.toString()).isEqualTo(code);
        assertThat(reply.json().path("detail").asText()).as(reply.toString()).contains(field);
    }

    private static List<JsonNode> ledger(Api admin, String accountId) {
        List<JsonNode> lines = new ArrayList<>();
        admin.get("/admin/accounts/" + accountId + "/ledger")
                .json()
                .path("data")
                .forEach(lines::add);
        return lines;
    }

    /** Each allowance grant of the account's default pool: its start and amount, oldest first. */
    private static List<String> allowanceGrants(String url, String accountId) {
        return SlaCreditsTest.rows(
                url,
                "SELECT period_start, amount FROM grants WHERE kind = 'allowance' AND pool = 'default'"
                        + " AND account_id = '" + accountId + "' ORDER BY period_start",
                rs -> Instant.ofEpochMilli(rs.getLong(1)) + " " + rs.getLong(2));
    }

    /** For each period start, how many allowance grants a renewal (not a plan change) made. */
    private static List<Long> renewalsPerPeriod(String url, String accountId) {
        return SlaCreditsTest.rows(
                url,
                "SELECT COUNT(*) FROM grants g WHERE g.kind = 'allowance' AND g.pool = 'default'"
                        + " AND g.account_id = '" + accountId + "' AND NOT EXISTS (SELECT 1 FROM ledger_entries l"
                        + " WHERE l.grant_id = g.id AND l.reason LIKE 'plan change %') GROUP BY g.period_start",
                rs -> rs.getLong(1));
    }
}
