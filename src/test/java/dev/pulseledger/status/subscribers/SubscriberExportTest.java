package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The operator's search and CSV export of status subscribers (CONTRACT §15), on both stores: the search
 * finds email subscribers by part of their address and webhook subscribers by part of their URL, in any
 * case; the export (API and console alike) defuses cells a spreadsheet would run as formulas.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriberExportTest {
    private static final String HOOK = "https://hooks.example.com/Status/Feed-Alerts";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void searchFindsAddressesAndWebhookUrlsAndTheExportDefusesFormulas(TestStore store) {
        try (MailServer mail = MailServer.start();
                TestNode node = SubscriberMailTest.node(store.newDatabaseUrl(), mail)) {
            Api admin = node.admin();
            SubscriberMailTest.services(admin, "api");
            for (String email : List.of("alice@example.org", "=1+1@example.org", "-2+3@example.org")) {
                assertThat(SubscriberMailTest.subscribe(node, email, null).status())
                        .isEqualTo(202);
            }
            Reply hook = admin.post("/admin/status-subscribers", Map.of("url", HOOK, "services", List.of("api")));
            assertThat(hook.status()).isEqualTo(201);
            String hookId = hook.json().get("id").asText();

            assertThat(ids(admin, "feed-alerts"))
                    .as("part of the URL, in another case")
                    .containsExactly(hookId);
            assertThat(ids(admin, "HOOKS.example")).containsExactly(hookId);
            assertThat(ids(admin, "alice")).hasSize(1).doesNotContain(hookId);
            assertThat(ids(admin, "example.org")).hasSize(3).doesNotContain(hookId);
            assertThat(ids(admin, "example")).hasSize(4);
            assertThat(ids(admin, "nowhere")).isEmpty();

            Reply exported = admin.get("/admin/status-subscribers/export");
            assertThat(exported.status()).isEqualTo(200);
            assertThat(exported.header("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
            String csv = exported.text();
            assertThat(csv.split("\r\n", -1))
                    .hasSize(6)
                    .startsWith("id,type,email,url,services,status,created_at,confirmed_at")
                    .anyMatch(line -> line.contains(",email,alice@example.org,,*,pending,"))
                    .anyMatch(line -> line.contains(",email,'=1+1@example.org,,*,pending,"))
                    .anyMatch(line -> line.contains(",email,'-2+3@example.org,,*,pending,"))
                    .anyMatch(line -> line.startsWith(hookId + ",webhook,," + HOOK + ",api,confirmed,"))
                    .endsWith("");

            ConsoleClient console = new ConsoleClient(node.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
            HttpResponse<String> page = console.get("/console/status-subscribers?q=feed-ALERTS");
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body())
                    .contains("data-subscriber=\"" + hookId + "\"", HOOK)
                    .doesNotContain("alice@example.org")
                    .contains("href=\"/console/status-subscribers/export\"");
            HttpResponse<String> download = console.get("/console/status-subscribers/export");
            assertThat(download.statusCode()).isEqualTo(200);
            assertThat(download.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/csv"));
            assertThat(download.headers().firstValue("Content-Disposition"))
                    .hasValue("attachment; filename=\"status-subscribers.csv\"");
            assertThat(download.headers().firstValue("Cache-Control")).hasValue("no-store");
            assertThat(download.body()).isEqualTo(csv);
            assertThat(new ConsoleClient(node.baseUrl())
                            .get("/console/status-subscribers/export")
                            .statusCode())
                    .as("no session: to the sign-in page")
                    .isEqualTo(303);
        }
    }

    /** Each subscriber of a page gets its own services (read for the whole page at once), on every page. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void eachSubscriberOfAPageListsItsOwnServices(TestStore store) {
        try (MailServer mail = MailServer.start();
                TestNode node = SubscriberMailTest.node(store.newDatabaseUrl(), mail)) {
            Api admin = node.admin();
            SubscriberMailTest.services(admin, "api", "auth", "db", "web");
            Map<String, List<String>> chosen = new LinkedHashMap<>();
            for (List<String> services : List.<List<String>>of(
                    List.of("web", "api"), List.of("db"), List.of(), List.of("web", "auth", "db"))) {
                Map<String, Object> body = new HashMap<>();
                body.put("url", HOOK + "/" + chosen.size());
                if (!services.isEmpty()) {
                    body.put("services", services);
                }
                Reply hook = admin.post("/admin/status-subscribers", body);
                assertThat(hook.status()).as(hook.toString()).isEqualTo(201);
                chosen.put(
                        hook.json().get("id").asText(),
                        services.stream().sorted().toList());
            }
            assertThat(SubscriberMailTest.subscribe(node, "bob@example.org", List.of("auth", "api"))
                            .status())
                    .isEqualTo(202);

            Map<String, List<String>> listed = new LinkedHashMap<>();
            Map<String, List<String>> pageByPage = new LinkedHashMap<>();
            servicesOnPages(admin, "", listed);
            servicesOnPages(admin, "limit=2&", pageByPage);
            assertThat(listed).hasSize(5).containsAllEntriesOf(chosen).containsValue(List.of("api", "auth"));
            assertThat(pageByPage).containsExactlyEntriesOf(listed);
            assertThat(admin.get("/admin/status-subscribers/export").text())
                    .contains("," + HOOK + "/0,api web,", "," + HOOK + "/1,db,", "," + HOOK + "/2,*,")
                    .contains("," + HOOK + "/3,auth db web,", ",email,bob@example.org,,api auth,");
        }
    }

    /** Puts each listed subscriber's services (none for all) into {@code services}, following the cursors. */
    private static void servicesOnPages(Api admin, String query, Map<String, List<String>> services) {
        String cursor = null;
        do {
            Reply page = admin.get("/admin/status-subscribers?" + query
                    + (cursor == null ? "" : "cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)));
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            page.json().get("data").forEach(s -> {
                List<String> own = new ArrayList<>();
                s.path("services").forEach(service -> own.add(service.asText()));
                services.put(s.get("id").asText(), own);
            });
            cursor = page.json().get("nextCursor").isNull()
                    ? null
                    : page.json().get("nextCursor").asText();
        } while (cursor != null);
    }

    @Test
    void aCellThatASpreadsheetWouldRunAsAFormulaGetsAnApostrophe() {
        for (String formula : List.of("=1+1", "+1", "-1", "@SUM(A1)", "\t=1", "\r=1")) {
            assertThat(SubscriberCsv.field(formula)).as(formula).contains("'" + formula);
        }
        assertThat(SubscriberCsv.field("\r=1")).isEqualTo("\"'\r=1\"");
        assertThat(SubscriberCsv.field("a=1")).isEqualTo("a=1");
        assertThat(SubscriberCsv.field("say \"hi\", then")).isEqualTo("\"say \"\"hi\"\", then\"");
        assertThat(SubscriberCsv.field("")).isEmpty();
    }

    private static List<String> ids(Api admin, String search) {
        Reply page = admin.get("/admin/status-subscribers?q=" + URLEncoder.encode(search, StandardCharsets.UTF_8));
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        List<String> ids = new ArrayList<>();
        page.json()
                .get("data")
                .forEach(subscriber -> ids.add(subscriber.get("id").asText()));
        return ids;
    }
}
