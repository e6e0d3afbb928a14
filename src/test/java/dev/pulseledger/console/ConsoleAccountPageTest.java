package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The account page shows the balance breakdown and the current period the API reports. */
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
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            String page = console.get("/console/accounts/" + accountId).body();

            assertThat(page)
                    .contains("<p class=\"big\" id=\"balance\">750 ")
                    .contains("<dd id=\"allowance\">500 of 500</dd>")
                    .contains("<dd id=\"credits\">250</dd>")
                    .containsPattern("<dd id=\"period\">\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC to ")
                    .contains("<dd id=\"next-expiry\">500 tokens at ");
        }
    }

    @Test
    void theAccountPageShowsWhatIsHeldAndTheLatestReservations() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            String held = api.post("/api/tokens/reservations", Map.of("amount", 300))
                    .json()
                    .get("reservationId")
                    .asText();
            String settled = api.post("/api/tokens/reservations", Map.of("amount", 200))
                    .json()
                    .get("reservationId")
                    .asText();
            assertThat(api.post("/api/tokens/reservations/" + settled + "/settle", Map.of("amount", 50))
                            .status())
                    .isEqualTo(200);
            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);

            String page = console.get("/console/accounts/" + caller.accountId()).body();

            assertThat(page)
                    .contains("<p class=\"big\" id=\"balance\">650 ")
                    .contains("<dd id=\"held\">300</dd>")
                    .contains("<table id=\"reservations\">")
                    .containsPattern("<code>" + held + "</code></td><td class=\"num\">300</td><td>held</td>")
                    .containsPattern("<code>" + settled + "</code></td><td class=\"num\">200</td><td>settled</td>\\s*"
                            + "<td class=\"num\">50</td>");
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
}
