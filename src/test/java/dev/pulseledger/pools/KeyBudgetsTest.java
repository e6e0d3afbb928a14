package dev.pulseledger.pools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Key budgets (CONTRACT §14) on both stores: a spend or hold that would take a key above a budget in its
 * window is refused 402 key_budget_exceeded and changes nothing; reverts and releases in the window give
 * back, a settle counts what it settled; the window resets exactly at its boundary, and a revert of an
 * earlier window's spending frees nothing now; the events come once per window; bad budgets change nothing.
 */
class KeyBudgetsTest {
    private static final Pattern USED = Pattern.compile("\"used\":(\\d+)");
    /** A Monday. */
    private static final Instant MONDAY = Instant.parse("2026-05-04T10:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendOrHoldAboveABudgetIsRefusedAndWhatComesBackInTheWindowFreesRoom(TestStore store) {
        TestClock clock = new TestClock(MONDAY);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            PoolsTest.credit(node, caller.accountId(), "images", 1000);
            Reply issued = admin.post(
                    "/admin/accounts/" + caller.accountId() + "/keys",
                    Map.of(
                            "name",
                            "batch-jobs",
                            "budgets",
                            List.of(budget("default", "day", 100), budget("images", "month", 50))));
            assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
            assertThat(issued.json().at("/budgets/1/pool").asText()).isEqualTo("images");
            Api capped = node.caller(issued.json().path("key").asText());
            Api free = node.caller(caller.key());

            Reply first = capped.post("/api/tokens/spend/60");
            assertThat(first.status()).as(first.toString()).isEqualTo(201);
            Reply refused = capped.post("/api/tokens/spend/41");
            assertThat(refused.status()).as(refused.toString()).isEqualTo(402);
            assertThat(refused.code()).isEqualTo("key_budget_exceeded");
            assertThat(refused.json().at("/budget/pool").asText()).isEqualTo("default");
            assertThat(refused.json().at("/budget/period").asText()).isEqualTo("day");
            assertThat(refused.json().at("/budget/tokens").asLong()).isEqualTo(100);
            assertThat(refused.json().path("used").asLong()).isEqualTo(60);
            assertThat(refused.json().path("resetsAt").asText()).isEqualTo("2026-05-05T00:00:00Z");
            assertThat(capped.balance()).isEqualTo(9940);
            // Another key of the account has no budget; the capped key's use is its own.
            assertThat(free.post("/api/tokens/spend/500").status()).isEqualTo(201);
            assertThat(capped.post("/api/tokens/spend/40").status()).isEqualTo(201);

            // A partial revert in the window gives back what it returns.
            String firstId = first.json().path("spendingId").asText();
            assertThat(capped.post("/api/tokens/spendings/" + firstId + "/revert", Map.of("amount", 25))
                            .status())
                    .isEqualTo(200);
            assertThat(capped.post("/api/tokens/spend/26").status()).isEqualTo(402);
            assertThat(capped.post("/api/tokens/spend/25").status()).isEqualTo(201);
            // A hold counts like a spend.
            assertThat(capped.post("/api/tokens/reservations", Map.of("amount", 1))
                            .code())
                    .isEqualTo("key_budget_exceeded");

            // Holds in images: counted while held, a release gives back, a settle counts what it settled.
            String held = hold(capped, "images", 40);
            assertThat(capped.post("/api/tokens/reservations", Map.of("amount", 11, "pool", "images"))
                            .code())
                    .isEqualTo("key_budget_exceeded");
            assertThat(capped.post("/api/tokens/reservations/" + held + "/release")
                            .status())
                    .isEqualTo(200);
            String settled = hold(capped, "images", 50);
            assertThat(capped.post("/api/tokens/reservations/" + settled + "/settle", Map.of("amount", 30))
                            .status())
                    .isEqualTo(200);
            assertThat(capped.post("/api/tokens/spend/21?pool=images").code()).isEqualTo("key_budget_exceeded");

            JsonNode key = capped.get("/api/tokens/key").json();
            assertThat(key.path("keyId").asText())
                    .isEqualTo(issued.json().path("id").asText());
            assertThat(key.path("name").asText()).isEqualTo("batch-jobs");
            assertThat(key.at("/budgets/0/used").asLong()).isEqualTo(100);
            assertThat(key.at("/budgets/0/remaining").asLong()).isZero();
            assertThat(key.at("/budgets/0/resetsAt").asText()).isEqualTo("2026-05-05T00:00:00Z");
            assertThat(key.at("/budgets/1/pool").asText()).isEqualTo("images");
            assertThat(key.at("/budgets/1/used").asLong()).isEqualTo(30);
            assertThat(key.at("/budgets/1/remaining").asLong()).isEqualTo(20);
            assertThat(key.at("/budgets/1/resetsAt").asText()).isEqualTo("2026-06-01T00:00:00Z");
            JsonNode unbudgeted = free.get("/api/tokens/key").json();
            assertThat(unbudgeted.path("budgets").isEmpty()).isTrue();

            // Lifting the budget with PATCH applies to the next spend; [] clears them.
            Reply cleared = admin.patch(
                    "/admin/accounts/" + caller.accountId() + "/keys/"
                            + key.path("keyId").asText(),
                    Map.of("budgets", List.of()));
            assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
            assertThat(capped.post("/api/tokens/spend/500").status()).isEqualTo(201);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aBudgetSetMidWindowCountsTheWindowsEarlierUseAndAnotherKeysRevertGivesBack(TestStore store) {
        TestClock clock = new TestClock(MONDAY.minus(Duration.ofDays(1)));
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Reply issued = admin.post("/admin/accounts/" + caller.accountId() + "/keys", Map.of("name", "worker"));
            assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
            Api worker = node.caller(issued.json().path("key").asText());
            Api owner = node.caller(caller.key());

            // Before it has a budget, the worker spends 70 and holds 10 today; yesterday's use does not count.
            assertThat(worker.post("/api/tokens/spend/500").status()).isEqualTo(201);
            clock.set(MONDAY);
            String spent = worker.post("/api/tokens/spend/70")
                    .json()
                    .path("spendingId")
                    .asText();
            assertThat(hold(worker, "default", 10)).isNotEmpty();

            Reply capped = admin.patch(
                    "/admin/accounts/" + caller.accountId() + "/keys/"
                            + issued.json().path("id").asText(),
                    Map.of("budgets", List.of(budget("default", "day", 100))));
            assertThat(capped.status()).as(capped.toString()).isEqualTo(200);
            assertThat(worker.get("/api/tokens/key")
                            .json()
                            .at("/budgets/0/used")
                            .asLong())
                    .isEqualTo(80);
            assertThat(worker.post("/api/tokens/spend/21").code()).isEqualTo("key_budget_exceeded");

            // The account's other key reverts the worker's spending: the worker's window gets it back.
            assertThat(owner.post("/api/tokens/spendings/" + spent + "/revert").status())
                    .isEqualTo(200);
            assertThat(worker.get("/api/tokens/key")
                            .json()
                            .at("/budgets/0/used")
                            .asLong())
                    .isEqualTo(10);
            assertThat(worker.post("/api/tokens/spend/90").status()).isEqualTo(201);
            assertThat(worker.post("/api/tokens/spend/1").code()).isEqualTo("key_budget_exceeded");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void theBudgetResetsExactlyAtTheBoundaryAndAnEarlierWindowsRevertFreesNothing(TestStore store) {
        Instant lastMilli = Instant.parse("2026-05-04T23:59:59.999Z");
        TestClock clock = new TestClock(lastMilli.minusSeconds(60));
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Api capped = node.caller(budgetedKey(node, caller.accountId(), budget("default", "day", 100)));

            Reply before = capped.post("/api/tokens/spend/70");
            assertThat(before.status()).as(before.toString()).isEqualTo(201);
            clock.set(lastMilli);
            assertThat(capped.post("/api/tokens/spend/30").status()).isEqualTo(201);
            Reply full = capped.post("/api/tokens/spend/1");
            assertThat(full.code()).isEqualTo("key_budget_exceeded");
            assertThat(full.json().path("resetsAt").asText()).isEqualTo("2026-05-05T00:00:00Z");

            clock.set(Instant.parse("2026-05-05T00:00:00Z"));
            assertThat(capped.post("/api/tokens/spend/100").status()).isEqualTo(201);
            // Reverting yesterday's 70 refunds the balance but frees nothing of today's window.
            String yesterday = before.json().path("spendingId").asText();
            Reply reverted = capped.post("/api/tokens/spendings/" + yesterday + "/revert");
            assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
            assertThat(capped.post("/api/tokens/spend/1").code()).isEqualTo("key_budget_exceeded");
            assertThat(capped.get("/api/tokens/key")
                            .json()
                            .at("/budgets/0/used")
                            .asLong())
                    .isEqualTo(100);
            assertThat(capped.balance()).isEqualTo(10_000 - 30 - 100);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();

            // verify checks every window: today's spending made 101 (as a broken write would) is found.
            try (Database database = LedgerAudit.open(node.databaseUrl())) {
                database.runInTransaction(connection -> {
                    try (PreparedStatement ps = connection.prepareStatement(
                            "UPDATE spendings SET amount = amount + 1 WHERE amount = 100 AND pool = 'default'")) {
                        assertThat(ps.executeUpdate()).isEqualTo(1);
                    }
                });
            }
            assertThat(LedgerAudit.mismatches(node.databaseUrl()))
                    .anySatisfy(m -> assertThat(m.problem())
                            .contains("used 101 of pool default in the day from"
                                    + " 2026-05-05T00:00:00Z, above its budget of 100"));
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aWindowWarnsAt80PercentAndIsExhaustedAt100OnceEach(TestStore store) {
        TestClock clock = new TestClock(MONDAY);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Api capped = node.caller(budgetedKey(node, caller.accountId(), budget("default", "week", 100)));

            assertThat(capped.post("/api/tokens/spend/79").status()).isEqualTo(201);
            assertThat(events(node)).isEmpty();
            String crossing =
                    capped.post("/api/tokens/spend/1").json().path("spendingId").asText();
            assertThat(events(node)).containsExactly("key.budget_warning 80");
            // Below 80 % and back above it: no second warning in the window.
            capped.post("/api/tokens/spendings/" + crossing + "/revert");
            assertThat(capped.post("/api/tokens/spend/5").status()).isEqualTo(201);
            assertThat(capped.post("/api/tokens/spend/16").status()).isEqualTo(201);
            assertThat(events(node)).containsExactly("key.budget_warning 80", "key.budget_exhausted 100");

            // The next week's window warns again.
            clock.set(MONDAY.plus(Duration.ofDays(7)));
            assertThat(capped.post("/api/tokens/spend/90").status()).isEqualTo(201);
            assertThat(events(node))
                    .containsExactly("key.budget_warning 80", "key.budget_exhausted 100", "key.budget_warning 90");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void badBudgetsAreRefusedNamingTheFieldAndChangeNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            Fixtures fixtures = new Fixtures(node);
            String accountId = fixtures.account(1000);
            PoolsTest.credit(node, accountId, "images", 100);
            Map<String, Object> kept = budget("images", "day", 10);
            Reply issued = admin.post("/admin/accounts/" + accountId + "/keys", Map.of("budgets", List.of(kept)));
            assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
            String path = "/admin/accounts/" + accountId + "/keys/"
                    + issued.json().path("id").asText();

            record Bad(Object budgets, int status, String code, String names) {}
            List<Bad> table = List.of(
                    new Bad(
                            List.of(
                                    budget("default", "day", 1),
                                    budget("default", "week", 1),
                                    budget("default", "month", 1),
                                    budget("images", "day", 1),
                                    budget("images", "week", 1)),
                            400,
                            "invalid_request",
                            "'budgets'"),
                    new Bad(List.of(budget("default", "day", 0)), 400, "invalid_request", "budgets[0].tokens"),
                    new Bad(List.of(budget("default", "day", -5)), 400, "invalid_request", "budgets[0].tokens"),
                    new Bad(List.of(budget("default", "year", 5)), 400, "invalid_request", "budgets[0].period"),
                    new Bad(
                            List.of(budget("default", "day", 5), budget("default", "day", 6)),
                            400,
                            "invalid_request",
                            "budgets[1]"),
                    new Bad(List.of(budget("x".repeat(33), "day", 5)), 400, "invalid_request", "budgets[0].pool"),
                    new Bad(List.of(budget("video", "day", 5)), 404, "pool_not_found", "video"),
                    new Bad("all", 400, "invalid_request", "budgets"));
            for (Bad bad : table) {
                Reply patched = admin.patch(path, Map.of("budgets", bad.budgets()));
                assertThat(patched.status()).as(patched.toString()).isEqualTo(bad.status());
                assertThat(patched.code()).as(patched.toString()).isEqualTo(bad.code());
                assertThat(patched.json().path("detail").asText())
                        .as(patched.toString())
                        .contains(bad.names());
                Reply created = admin.post("/admin/accounts/" + accountId + "/keys", Map.of("budgets", bad.budgets()));
                assertThat(created.status()).as(created.toString()).isEqualTo(bad.status());
            }
            JsonNode keys = admin.get("/admin/accounts/" + accountId + "/keys").json();
            assertThat(keys.path("data")).hasSize(1);
            assertThat(keys.at("/data/0/budgets")).hasSize(1);
            assertThat(keys.at("/data/0/budgets/0/tokens").asLong()).isEqualTo(10);

            // Another account's key is not found through this account.
            String other = fixtures.account(10);
            Reply elsewhere = admin.patch(
                    "/admin/accounts/" + other + "/keys/"
                            + issued.json().path("id").asText(),
                    Map.of("budgets", List.of()));
            assertThat(elsewhere.code()).isEqualTo("key_not_found");
            assertThat(admin.get("/admin/accounts/" + accountId + "/keys")
                            .json()
                            .at("/data/0/budgets"))
                    .hasSize(1);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void usageByKeyShowsThatKeysSpendingOnlyAndAnotherAccountsKeyIsNotFound(TestStore store) {
        TestClock clock = new TestClock(MONDAY);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures fixtures = new Fixtures(node);
            Fixtures.Caller caller = fixtures.caller(10_000);
            Fixtures.IssuedKey second = fixtures.issueKey(caller.accountId());
            Api first = node.caller(caller.key());
            Api other = node.caller(second.key());
            String firstSpending = first.post("/api/tokens/spend/100")
                    .json()
                    .path("spendingId")
                    .asText();
            first.post("/api/tokens/spendings/" + firstSpending + "/revert", Map.of("amount", 30));
            other.post("/api/tokens/spend/7");
            String settled = hold(other, "default", 50);
            other.post("/api/tokens/reservations/" + settled + "/settle", Map.of("amount", 20));

            JsonNode byOther =
                    first.get("/api/tokens/usage?keyId=" + second.id()).json().path("total");
            assertThat(byOther.path("spent").asLong()).isEqualTo(27);
            assertThat(byOther.path("spendings").asLong()).isEqualTo(2);
            String firstKeyId =
                    first.get("/api/tokens/key").json().path("keyId").asText();
            JsonNode byFirst = node.admin()
                    .get("/admin/accounts/" + caller.accountId() + "/usage?keyId=" + firstKeyId)
                    .json()
                    .path("total");
            assertThat(byFirst.path("spent").asLong()).isEqualTo(100);
            assertThat(byFirst.path("reverted").asLong()).isEqualTo(30);
            assertThat(first.get("/api/tokens/usage").json().at("/total/spent").asLong())
                    .isEqualTo(127);

            Fixtures.Caller stranger = fixtures.caller(10);
            String strangerKey = node.caller(stranger.key())
                    .get("/api/tokens/key")
                    .json()
                    .path("keyId")
                    .asText();
            assertThat(first.get("/api/tokens/usage?keyId=" + strangerKey).code())
                    .isEqualTo("key_not_found");
            assertThat(first.get("/api/tokens/usage?keyId=key_none").code()).isEqualTo("key_not_found");
            assertThat(node.admin().get("/admin/accounts/acct_none/usage").code())
                    .isEqualTo("account_not_found");
        }
    }

    static Map<String, Object> budget(String pool, String period, long tokens) {
        return Map.of("pool", pool, "period", period, "tokens", tokens);
    }

    /** Issues a key with the budgets for the account; returns the key itself. */
    static String budgetedKey(TestNode node, String accountId, Map<String, Object> budget) {
        Reply issued = node.admin().post("/admin/accounts/" + accountId + "/keys", Map.of("budgets", List.of(budget)));
        assertThat(issued.status()).as(issued.toString()).isEqualTo(201);
        return issued.json().path("key").asText();
    }

    private static String hold(Api api, String pool, long amount) {
        Reply held = api.post("/api/tokens/reservations", Map.of("amount", amount, "pool", pool));
        assertThat(held.status()).as(held.toString()).isEqualTo(201);
        return held.json().path("reservationId").asText();
    }

    /** The key budget events in the outbox, in order, each as its type and the use it reports. */
    private static List<String> events(TestNode node) {
        try (Database database = LedgerAudit.open(node.databaseUrl())) {
            return database.read(connection -> {
                List<String> found = new ArrayList<>();
                try (PreparedStatement ps = connection.prepareStatement(
                                "SELECT type, payload FROM events WHERE type LIKE 'key.budget%' ORDER BY seq");
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Matcher used = USED.matcher(rs.getString("payload"));
                        assertThat(used.find()).as(rs.getString("payload")).isTrue();
                        found.add(rs.getString("type") + " " + used.group(1));
                    }
                }
                return found;
            });
        }
    }
}
