package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Who may use the console and how: sign-in, the cookie, CSRF, the CSP and signing out, over HTTP. */
class ConsoleSecurityTest {
    private static TestNode node;
    private static Fixtures fixtures;

    @BeforeAll
    static void start() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
        fixtures = new Fixtures(node);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
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
        assertThat(reply.headers().firstValue("Set-Cookie")).isEmpty();
        assertThat(reply.body()).contains("This is not an admin key.").doesNotContain(caller.key());
        assertThat(console.get("/console").statusCode()).isEqualTo(303);
    }

    @Test
    void withoutASessionEveryPageSendsTheBrowserToSignIn() {
        ConsoleClient stranger = new ConsoleClient(node.baseUrl());
        for (String page : new String[] {"/console", "/console/accounts", "/console/services"}) {
            HttpResponse<String> reply = stranger.get(page);
            assertThat(reply.statusCode()).as(page).isEqualTo(303);
            assertThat(reply.headers().firstValue("Location")).as(page).contains("/console/sign-in");
        }
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
