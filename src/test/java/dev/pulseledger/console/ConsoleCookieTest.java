package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestKeystore;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session cookie's {@code Secure} attribute: set when the browser reached the console over
 * HTTPS, on the node's own TLS port or at a trusted proxy that says so, and never otherwise.
 */
class ConsoleCookieTest {
    private static final String FORWARDED_PROTO = "X-Forwarded-Proto";

    @TempDir
    static Path folder;

    private static TestKeystore keystore;

    @BeforeAll
    static void generateKeystore() {
        keystore = TestKeystore.generate(folder, "console-cookie-secret");
    }

    @Test
    void overTlsTheSessionCookieIsSecureHttpOnlyAndStrict() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), keystore.flags())) {
            ConsoleClient console = ConsoleClient.overHttps(
                    "https://127.0.0.1:" + node.application().port(), keystore.trusting());

            HttpResponse<String> signIn = console.signIn(TestNode.ADMIN_KEY);
            assertThat(signIn.statusCode()).isEqualTo(303);
            assertThat(cookie(signIn)).contains("; Secure", "; HttpOnly", "; SameSite=Strict", "; Path=/console");
            assertThat(console.get("/console").statusCode()).isEqualTo(200);

            HttpResponse<String> signOut =
                    console.post("/console/sign-out", Map.of("csrf", console.csrfToken("/console")));
            assertThat(signOut.statusCode()).isEqualTo(303);
            assertThat(cookie(signOut)).contains("Max-Age=0", "; Secure");
        }
    }

    @Test
    void behindATrustedProxyThatEndedTlsTheCookieIsSecureAndOverPlainHttpItIsNot() {
        try (TestNode node =
                TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--trusted-proxies", "127.0.0.0/8,::1")) {
            ConsoleClient plain = new ConsoleClient(node.baseUrl());
            assertThat(cookie(plain.signIn(TestNode.ADMIN_KEY))).doesNotContain("Secure");
            assertThat(cookie(plain.withHeader(FORWARDED_PROTO, "http").signIn(TestNode.ADMIN_KEY)))
                    .doesNotContain("Secure");

            ConsoleClient proxied = plain.withHeader(FORWARDED_PROTO, "https");
            HttpResponse<String> signIn = proxied.signIn(TestNode.ADMIN_KEY);
            assertThat(signIn.statusCode()).isEqualTo(303);
            assertThat(cookie(signIn)).contains("; Secure", "; HttpOnly", "; SameSite=Strict");
            assertThat(proxied.get("/console").statusCode()).isEqualTo(200);
            // Proxies append: the last hop (the proxy next to the node) is the one that counts.
            assertThat(cookie(plain.withHeader(FORWARDED_PROTO, "https, http").signIn(TestNode.ADMIN_KEY)))
                    .doesNotContain("Secure");
        }
    }

    @Test
    void aClientThatIsNotATrustedProxyCannotClaimHttps() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            ConsoleClient claiming = new ConsoleClient(node.baseUrl()).withHeader(FORWARDED_PROTO, "https");
            HttpResponse<String> signIn = claiming.signIn(TestNode.ADMIN_KEY);
            assertThat(signIn.statusCode()).isEqualTo(303);
            assertThat(cookie(signIn)).contains("; HttpOnly").doesNotContain("Secure");
        }
    }

    private static String cookie(HttpResponse<String> reply) {
        return reply.headers()
                .firstValue("Set-Cookie")
                .filter(value -> value.startsWith(ConsoleClient.COOKIE + "="))
                .orElseThrow(() -> new AssertionError("no console cookie in " + reply.headers()));
    }
}
