package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RouteTable;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.RoutePaths;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.WebhookReceiver;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Who may use the console and how: sign-in, the cookie, CSRF, the CSP and signing out, over HTTP.
 * The walks over every page and every change take the console's routes from the node itself, so a
 * page or change added later is covered without touching this test.
 */
class ConsoleSecurityTest {
    private static final Set<String> OPEN_PATHS = Set.of(ConsoleGuard.SIGN_IN, "/console/assets/{asset}");

    /** Values a form of each kind would accept, so that a change the guard let through would show. */
    private static final Map<String, String> PLAUSIBLE_FORM = Map.ofEntries(
            Map.entry("name", "Walker"),
            Map.entry("id", "walker"),
            Map.entry("amount", "50"),
            Map.entry("reason", "test"),
            Map.entry("planId", "free"),
            Map.entry("status", "resolved"),
            Map.entry("serviceStatus", "major_outage"),
            Map.entry("keyName", "walker"),
            Map.entry("title", "Walked"),
            Map.entry("impact", "minor"),
            Map.entry("message", "walked"),
            Map.entry("services", "api"),
            Map.entry("startsAt", "2099-01-01T00:00"),
            Map.entry("endsAt", "2099-01-01T01:00"));

    private static TestNode node;
    private static Fixtures fixtures;
    private static WebhookReceiver receiver;
    private static Map<String, String> ids;

    @BeforeAll
    static void start() {
        receiver = WebhookReceiver.start();
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--events-poll-ms", "50");
        fixtures = new Fixtures(node);
        ids = ConsoleFixtures.oneOfEach(node, receiver);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    void anAdminKeySignsInWithAStrictHttpOnlyCookie() {
        ConsoleClient console = new ConsoleClient(node.baseUrl());
        HttpResponse<String> reply = console.signIn(TestNode.ADMIN_KEY);

        assertThat(reply.statusCode()).isEqualTo(303);
        assertThat(reply.headers().firstValue("Location")).contains("/console");
        String cookie = reply.headers().firstValue("Set-Cookie").orElseThrow();
        assertThat(cookie)
                .startsWith(ConsoleClient.COOKIE + "=")
                .contains("; HttpOnly", "; SameSite=Strict", "; Path=/console")
                .doesNotContain("Secure", TestNode.ADMIN_KEY);
        assertThat(console.get("/console").statusCode()).isEqualTo(200);
    }

    @Test
    void aCallerKeyCannotSignIn() {
        Fixtures.Caller caller = fixtures.caller(100);
        ConsoleClient console = new ConsoleClient(node.baseUrl());
        HttpResponse<String> reply = console.signIn(caller.key());

        assertThat(reply.statusCode()).isEqualTo(401);
        assertThat(reply.headers().allValues("Set-Cookie"))
                .as("no session cookie, only the form's fresh CSRF cookie")
                .noneMatch(cookie -> cookie.startsWith(ConsoleClient.COOKIE + "="));
        assertThat(reply.body()).contains("This is not an admin key.").doesNotContain(caller.key());
        assertThat(console.get("/console").statusCode()).isEqualTo(303);
    }

    @Test
    void withoutASessionEveryPageSendsTheBrowserToSignInAndEveryChangeIsRefused() {
        ConsoleClient stranger = new ConsoleClient(node.baseUrl());
        String before = everything();
        List<RouteTable.Route> pages = guarded("GET");
        assertThat(pages).hasSizeGreaterThan(8);
        for (RouteTable.Route route : pages) {
            String path = RoutePaths.concrete(route.pathTemplate(), ids);
            HttpResponse<String> reply = stranger.get(path);
            assertThat(reply.statusCode()).as(path).isEqualTo(303);
            assertThat(reply.headers().firstValue("Location")).as(path).contains(ConsoleGuard.SIGN_IN);
        }
        List<RouteTable.Route> changes = guarded("POST");
        assertThat(changes).hasSizeGreaterThan(15);
        for (RouteTable.Route route : changes) {
            String path = RoutePaths.concrete(route.pathTemplate(), ids);
            assertThat(stranger.post(path, PLAUSIBLE_FORM).statusCode())
                    .as(path)
                    .isEqualTo(401);
        }
        assertThat(everything()).isEqualTo(before);
    }

    @Test
    void everyChangeWithoutItsCsrfTokenOrWithAWrongOneIsRefusedAndChangesNothing() {
        ConsoleClient console = signedIn();
        String before = everything();
        for (RouteTable.Route route : guarded("POST")) {
            String path = RoutePaths.concrete(route.pathTemplate(), ids);
            Map<String, String> wrongToken = new HashMap<>(PLAUSIBLE_FORM);
            wrongToken.put("csrf", "0".repeat(64));
            assertThat(console.post(path, PLAUSIBLE_FORM).statusCode()).as(path).isEqualTo(403);
            assertThat(console.post(path, wrongToken).statusCode()).as(path).isEqualTo(403);
        }
        assertThat(everything()).isEqualTo(before);
        assertThat(console.get("/console").statusCode()).as("still signed in").isEqualTo(200);
    }

    @Test
    void aChangeWithoutTheCsrfTokenIsRefusedAndChangesNothing() {
        String accountId = fixtures.account(100);
        ConsoleClient console = signedIn();

        HttpResponse<String> missing =
                console.post("/console/accounts/" + accountId + "/credits", Map.of("amount", "50"));
        HttpResponse<String> wrong = console.post(
                "/console/accounts/" + accountId + "/credits", Map.of("amount", "50", "csrf", "0".repeat(64)));

        assertThat(missing.statusCode()).isEqualTo(403);
        assertThat(wrong.statusCode()).isEqualTo(403);
        assertThat(balance(accountId)).isEqualTo(100);
        HttpResponse<String> withToken = console.submit(
                "/console/accounts/" + accountId,
                "/console/accounts/" + accountId + "/credits",
                Map.of("amount", "50"));
        assertThat(withToken.statusCode()).isEqualTo(303);
        assertThat(balance(accountId)).isEqualTo(150);
    }

    @Test
    void aSignedOutSessionCannotActEvenWithItsOldToken() {
        String accountId = fixtures.account(100);
        ConsoleClient console = signedIn();
        String token = console.csrfToken("/console/accounts/" + accountId);

        HttpResponse<String> signOut = console.post("/console/sign-out", Map.of("csrf", token));
        assertThat(signOut.statusCode()).isEqualTo(303);
        assertThat(signOut.headers().firstValue("Set-Cookie").orElseThrow()).contains("Max-Age=0");

        HttpResponse<String> after =
                console.post("/console/accounts/" + accountId + "/credits", Map.of("amount", "50", "csrf", token));
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(balance(accountId)).isEqualTo(100);
        assertThat(console.get("/console").statusCode()).isEqualTo(303);
    }

    @Test
    void pagesCarryAStrictContentSecurityPolicyAndAreNotCached() {
        ConsoleClient console = signedIn();
        for (String page : new String[] {"/console", "/console/sign-in", "/console/accounts"}) {
            HttpResponse<String> reply = console.get(page);
            String policy =
                    reply.headers().firstValue("Content-Security-Policy").orElseThrow();
            assertThat(policy)
                    .as(page)
                    .contains("default-src 'none'", "script-src 'self'", "frame-ancestors 'none'")
                    .doesNotContain("unsafe-inline", "unsafe-eval");
            assertThat(reply.headers().firstValue("Cache-Control")).as(page).contains("no-store");
        }
    }

    @Test
    void theSessionIsKeptInTheDatabaseSoAnotherNodeKnowsIt() {
        ConsoleClient console = signedIn();
        try (TestNode second = TestNode.start(node.databaseUrl())) {
            ConsoleClient there = console.at(second.baseUrl());
            assertThat(there.get("/console").statusCode()).isEqualTo(200);
            String accountId = fixtures.account(0);
            assertThat(there.submit(
                                    "/console/accounts/" + accountId,
                                    "/console/accounts/" + accountId + "/credits",
                                    Map.of("amount", "7"))
                            .statusCode())
                    .isEqualTo(303);
            assertThat(balance(accountId)).isEqualTo(7);
        }
    }

    @Test
    void aNodeRestartSignsNobodyOut() {
        String databaseUrl = TestStore.SQLITE.newDatabaseUrl();
        ConsoleClient console;
        try (TestNode first = TestNode.start(databaseUrl)) {
            console = new ConsoleClient(first.baseUrl());
            assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
        }
        try (TestNode restarted = TestNode.start(databaseUrl)) {
            ConsoleClient after = console.at(restarted.baseUrl());
            assertThat(after.get("/console").statusCode()).isEqualTo(200);
            assertThat(after.submit(
                                    "/console/accounts",
                                    "/console/accounts",
                                    Map.of("name", "After restart", "planId", "free"))
                            .statusCode())
                    .isEqualTo(303);
            assertThat(restarted.admin().get("/admin/accounts").text()).contains("After restart");
        }
    }

    /** The console's routes of this method that need a session: all but sign-in and the assets. */
    private static List<RouteTable.Route> guarded(String method) {
        return RoutePaths.of(node, method, "/console").stream()
                .filter(route -> !OPEN_PATHS.contains(route.pathTemplate()))
                .toList();
    }

    /** What the operator API shows of everything a console change could touch. */
    private static String everything() {
        Api admin = node.admin();
        StringBuilder all = new StringBuilder();
        for (String path : List.of(
                "/admin/accounts?limit=100",
                "/admin/accounts/" + ids.get("accountId") + "/keys",
                "/admin/accounts/" + ids.get("accountId") + "/ledger",
                "/admin/plans",
                "/admin/services",
                "/admin/incidents",
                "/admin/maintenances",
                "/admin/webhooks/" + ids.get("webhookId") + "/deliveries")) {
            Reply reply = admin.get(path);
            assertThat(reply.status()).as(path).isEqualTo(200);
            all.append(path).append(' ').append(reply.text()).append('\n');
        }
        return all.toString();
    }

    private static ConsoleClient signedIn() {
        ConsoleClient console = new ConsoleClient(node.baseUrl());
        assertThat(console.signIn(TestNode.ADMIN_KEY).statusCode()).isEqualTo(303);
        return console;
    }

    private static long balance(String accountId) {
        return node.admin()
                .get("/admin/accounts/" + accountId)
                .json()
                .get("balance")
                .asLong();
    }
}
