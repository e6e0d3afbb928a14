package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The account page shows the balance breakdown, the current period and the reservations the API reports. */
class ConsoleAccountPageTest {
    @Test
    void theAccountPageShowsTheAllowanceCreditsAndPeriod() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            assertThat(admin.post(
                                    "/admin/plans",
                                    Map.of("id", "pro", "name", "Pro", "allowance", 500, "period", "month"))
                            .status())
                    .isEqualTo(201);
            String accountId = admin.post("/admin/accounts", Map.of("name", "Periodic", "planId", "pro"))
                    .json()
                    .get("id")
                    .asText();
            assertThat(admin.post("/admin/accounts/" + accountId + "/credits", Map.of("amount", 250))
                            .status())
                    .isEqualTo(201);
            assertThat(admin.post("/admin/accounts/" + accountId + "/credits", Map.of("amount", 40, "pool", "images"))
                            .status())
                    .isEqualTo(201);
            Reply budgeted = admin.post(
                    "/admin/accounts/" + accountId + "/keys",
                    Map.of(
                            "name",
                            "capped",
                            "budgets",
                            List.of(Map.of("pool", "images", "period", "day", "tokens", 30))));
            assertThat(node.caller(budgeted.json().path("key").asText())
                            .post("/api/tokens/spend/12?pool=images")
                            .status())
                    .isEqualTo(201);
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            String page = console.get("/console/accounts/" + accountId).body();
            assertThat(page)
                    .containsPattern("<li data-budget=\"images/day\"><code>images</code> per day: 12 of 30"
                            + " \\(resets \\d{4}-\\d\\d-\\d\\d 00:00:00 UTC\\)</li>");

            assertThat(page)
                    .contains("<p class=\"big\" id=\"balance\">750 ")
                    .contains("<dd id=\"allowance\">500 of 500</dd>")
                    .contains("<dd id=\"credits\">250</dd>")
                    .containsPattern("<dd id=\"period\">\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC to ")
                    .contains("<dd id=\"next-expiry\">500 tokens at ")
                    .contains("<tr data-pool=\"images\"><th scope=\"row\"><code>images</code></th>"
                            + "<td class=\"num\">28</td><td class=\"num\">0</td><td>none</td></tr>");
        }
    }

    /** CONTRACT §13: the account page changes the plan within the period, now or at its end, and cancels. */
    @Test
    void theAccountPageChangesThePlanNowOrAtThePeriodsEndAndCancels() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            for (String id : List.of("basic", "pro")) {
                assertThat(admin.post("/admin/plans", Map.of("id", id, "name", id, "allowance", 500, "period", "month"))
                                .status())
                        .isEqualTo(201);
            }
            String accountId = new Fixtures(admin).account("basic", 0);
            String page = "/console/accounts/" + accountId;
            String action = page + "/plan-change";
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            assertThat(console.submit(page, action, Map.of("changePlanId", "basic", "when", "now"))
                            .body())
                    .contains("The account is on this plan already.");
            assertThat(console.submit(page, action, Map.of("changePlanId", "pro", "when", "soon"))
                            .body())
                    .contains("Choose now or at the end of the period.");
            assertThat(console.submit(page, action, Map.of("changePlanId", "pro", "when", "period_end"))
                            .statusCode())
                    .isEqualTo(303);
            assertThat(console.get(page).body())
                    .contains("<dd id=\"pending-change\">to pro (<code>pro</code>) at ")
                    .contains("Cancel waiting change");
            assertThat(console.submit(page, action, Map.of("when", "cancel")).statusCode())
                    .isEqualTo(303);
            assertThat(admin.get("/admin/accounts/" + accountId).json().has("pendingChange"))
                    .isFalse();
            assertThat(console.submit(page, action, Map.of("when", "cancel")).body())
                    .contains("No plan change waits");
            assertThat(console.submit(page, action, Map.of("changePlanId", "pro", "when", "now"))
                            .statusCode())
                    .isEqualTo(303);
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("planId")
                            .asText())
                    .isEqualTo("pro");
        }
    }

    /** CONTRACT §13: the account page lists credit grants and revokes one once; a plan's SLA preview page. */
    @Test
    void theAccountPageRevokesACreditOnceAndThePlanPageShowsItsSlaPreview() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            assertThat(admin.put("/admin/services/api", Map.of("name", "API", "status", "operational"))
                            .status())
                    .isEqualTo(201);
            assertThat(admin.post(
                                    "/admin/plans",
                                    Map.of(
                                            "id",
                                            "pro",
                                            "name",
                                            "Pro",
                                            "allowance",
                                            1000,
                                            "sla",
                                            Map.of(
                                                    "services",
                                                    List.of("api"),
                                                    "tiers",
                                                    List.of(Map.of("below", 0.9, "creditPercent", 50)))))
                            .status())
                    .isEqualTo(201);
            String accountId = new Fixtures(admin).account("pro", 0);
            assertThat(admin.post("/admin/accounts/" + accountId + "/credits", Map.of("amount", 300))
                            .status())
                    .isEqualTo(201);
            String grantId = admin.get("/admin/accounts/" + accountId + "/ledger")
                    .json()
                    .get("data")
                    .get(0)
                    .get("grantId")
                    .asText();
            assertThat(admin.patch("/admin/services/api", Map.of("status", "major_outage"))
                            .status())
                    .isEqualTo(200);
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
            String page = "/console/accounts/" + accountId;
            String revoke = page + "/grants/" + grantId + "/revoke";

            assertThat(console.get(page).body()).contains("<tr data-grant=\"" + grantId + "\">");
            assertThat(console.submit(page, revoke, Map.of()).statusCode()).isEqualTo(303);
            assertThat(console.get(page).body()).contains("revoked ");
            assertThat(console.submit(page, page + "/grants/gr_nope/revoke", Map.of())
                            .body())
                    .contains("The account has no credit grant with this id.");
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(1000);
            assertThat(console.get("/console/plans").body()).contains("/console/plans/pro/sla-preview");
            Waiting.until(
                    "the outage shows in the preview",
                    () -> console.get("/console/plans/pro/sla-preview").body().contains("data-account=\"" + accountId));
            assertThat(console.get("/console/plans/free/sla-preview").body()).contains("id=\"no-sla\"");
        }
    }

    @Test
    void theAccountPageChartsWhatTheAccountSpentEachDayAsTheUsageApiReportsIt() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1_000);
            for (int amount : new int[] {120, 80, 7}) {
                assertThat(node.caller(caller.key())
                                .post("/api/tokens/spend/" + amount)
                                .status())
                        .isEqualTo(201);
            }
            long spentToday = node.caller(caller.key())
                    .get("/api/tokens/usage")
                    .json()
                    .path("total")
                    .path("spent")
                    .asLong();
            assertThat(spentToday).isEqualTo(207);
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            String page = console.get("/console/accounts/" + caller.accountId()).body();

            assertThat(page)
                    .contains("id=\"chart-usage\"")
                    .contains("Spent per day this period")
                    .contains("<td class=\"num\">207</td>")
                    .contains("207 tokens this period, at most 207 in a day");
        }
    }

    @Test
    void theAccountPageListsItsReservationsPagedAndFilteredOnTheServer() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Api api = node.caller(caller.key());
            List<String> ids = new ArrayList<>();
            for (int i = 1; i <= 24; i++) {
                Reply held = api.post("/api/tokens/reservations", Map.of("amount", 10 * i));
                assertThat(held.status()).isEqualTo(201);
                ids.add(held.json().get("reservationId").asText());
            }
            assertThat(api.post("/api/tokens/reservations/" + ids.get(0) + "/settle", Map.of("amount", 4))
                            .status())
                    .isEqualTo(200);
            assertThat(api.post("/api/tokens/reservations/" + ids.get(1) + "/release")
                            .status())
                    .isEqualTo(200);
            long held = api.get("/api/tokens/balance").json().path("held").asLong();
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
            String path = "/console/accounts/" + caller.accountId();

            String first = console.get(path).body();
            List<String> firstIds = rows(first);
            Matcher next = OLDER.matcher(first);
            assertThat(next.find()).isTrue();
            String second =
                    console.get(path + next.group(1).replace("&amp;", "&")).body();

            assertThat(first).contains("<dd id=\"held\">" + String.format(Locale.ENGLISH, "%,d", held) + "</dd>");
            assertThat(firstIds).hasSize(AccountPages.RESERVATIONS_PAGE_SIZE);
            assertThat(firstIds.getFirst()).isEqualTo(ids.getLast());
            List<String> all = new ArrayList<>(firstIds);
            all.addAll(rows(second));
            assertThat(all).isEqualTo(ids.reversed());
            assertThat(second)
                    .containsPattern("data-reservation=\"" + ids.get(0) + "\" data-status=\"settled\"")
                    .containsPattern("data-reservation=\"" + ids.get(1) + "\" data-status=\"released\"")
                    .doesNotContain("rel=\"next\">Older reservations");
            List<String> onlyHeld =
                    rows(console.get(path + "?reservationStatus=held").body());
            assertThat(onlyHeld).hasSize(AccountPages.RESERVATIONS_PAGE_SIZE).doesNotContain(ids.get(0), ids.get(1));
            assertThat(rows(console.get(path + "?reservationStatus=settled").body()))
                    .containsExactly(ids.get(0));
        }
    }

    private static final Pattern ROW = Pattern.compile("data-reservation=\"(rsv_[0-9a-z]+)\"");
    private static final Pattern OLDER =
            Pattern.compile("href=\"/console/accounts/[a-z0-9_]+(\\?[^\"#]*)#reservations-heading\" rel=\"next\"");

    private static List<String> rows(String page) {
        List<String> ids = new ArrayList<>();
        Matcher matcher = ROW.matcher(page);
        while (matcher.find()) {
            ids.add(matcher.group(1));
        }
        return ids;
    }
}
