package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.ConsoleClient;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Console sign-in by email, password and TOTP (CONTRACT §17), on a node whose clock the test moves: the
 * code window's edges, a code never accepted twice, recovery codes once each, limits that stop guessing
 * without locking an owner out for good, no hint of which emails exist, and CSRF on the sign-in form.
 */
class OperatorSignInTest {
    private static final String PASSWORD = "correct horse battery staple";
    /** 10 s into a 30 s TOTP step, so a step's edges are easy to name. */
    private static final Instant START = Instant.parse("2026-11-21T10:00:10Z");

    private final TestClock clock = new TestClock(START);
    private TestNode node;
    private Api owner;
    private String operatorId;

    @BeforeEach
    void start() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), clock, "--trusted-proxies", "127.0.0.0/8,::1");
        owner = node.admin();
        operatorId = owner.post(
                        "/admin/operators",
                        Map.of(
                                "name",
                                "Oona Owner",
                                "email",
                                "oona@example.com",
                                "role",
                                "owner",
                                "password",
                                PASSWORD))
                .json()
                .path("id")
                .asText();
    }

    @AfterEach
    void stop() {
        node.close();
    }

    @Test
    void aPasswordSignsInAndTheSessionActsAsTheOperatorInTheAuditLog() {
        ConsoleClient browser = from("198.51.100.1");
        assertThat(browser.signIn("OONA@example.com", PASSWORD, "").statusCode())
                .isEqualTo(303);
        assertThat(browser.get("/console").statusCode()).isEqualTo(200);
        assertThat(browser.submit("/console/plans", "/console/plans", Map.of("id", "pro", "name", "Pro"))
                        .statusCode())
                .isEqualTo(303);
        JsonNode entry = owner.get("/admin/audit?operatorId=" + operatorId)
                .json()
                .path("data")
                .get(0);
        assertThat(entry.path("via").asText()).isEqualTo("session");
        assertThat(entry.path("operatorName").asText()).isEqualTo("Oona Owner");
        assertThat(entry.path("path").asText()).isEqualTo("/console/plans");
    }

    @Test
    void totpCodesAreAcceptedOneStepEitherSideOfNowAndNeverTwice() {
        String secret = owner.post("/admin/operators/" + operatorId + "/totp")
                .json()
                .path("secret")
                .asText();

        assertThat(signIn(PASSWORD, "").statusCode()).as("no code").isEqualTo(401);
        String now = Totp.code(secret, clock.instant());
        assertThat(signIn(PASSWORD, now).statusCode()).isEqualTo(303);
        assertThat(signIn(PASSWORD, now).statusCode()).as("the same code again").isEqualTo(401);
        assertThat(signIn(PASSWORD, Totp.code(secret, clock.instant().minus(Totp.STEP)))
                        .statusCode())
                .as("an older step than one accepted")
                .isEqualTo(401);

        clock.advance(Duration.ofMinutes(5));
        Instant at = clock.instant();
        assertThat(signIn(PASSWORD, Totp.code(secret, at.minus(Duration.ofSeconds(60))))
                        .statusCode())
                .as("two steps ago")
                .isEqualTo(401);
        assertThat(signIn(PASSWORD, Totp.code(secret, at.plus(Duration.ofSeconds(60))))
                        .statusCode())
                .as("two steps ahead")
                .isEqualTo(401);
        assertThat(signIn(PASSWORD, Totp.code(secret, at.minus(Duration.ofSeconds(30))))
                        .statusCode())
                .as("the step before, a clock a little behind")
                .isEqualTo(303);
        assertThat(signIn(PASSWORD, Totp.code(secret, at.plus(Duration.ofSeconds(30))))
                        .statusCode())
                .as("the step after, a clock a little ahead")
                .isEqualTo(303);

        clock.advance(Duration.ofMinutes(5));
        clock.set(Instant.ofEpochSecond(Totp.step(clock.instant()) * 30 + 29)); // the last second of a step
        String lastSecond = Totp.code(secret, clock.instant());
        clock.advance(Duration.ofSeconds(31)); // the first second of the step after next
        assertThat(signIn(PASSWORD, lastSecond).statusCode())
                .as("a code whose step ended more than one step ago")
                .isEqualTo(401);
    }

    @Test
    void eachRecoveryCodeWorksOnce() {
        JsonNode enrolment =
                owner.post("/admin/operators/" + operatorId + "/totp").json();
        assertThat(enrolment.path("recoveryCodes")).hasSize(10);
        String code = enrolment.path("recoveryCodes").get(0).asText();
        assertThat(signIn(PASSWORD, code).statusCode()).isEqualTo(303);
        assertThat(signIn(PASSWORD, code).statusCode()).isEqualTo(401);
        assertThat(signIn(
                                "wrong password!!",
                                enrolment.path("recoveryCodes").get(1).asText())
                        .statusCode())
                .isEqualTo(401);
        assertThat(signIn(PASSWORD, enrolment.path("recoveryCodes").get(1).asText())
                        .statusCode())
                .as("a failed attempt did not use the code up")
                .isEqualTo(303);
    }

    @Test
    void anUnknownEmailAndAWrongPasswordGetTheSameAnswer() {
        HttpResponse<String> unknown = from("198.51.100.2").signIn("nobody@example.com", PASSWORD, "");
        HttpResponse<String> wrong = from("198.51.100.3").signIn("oona@example.com", "wrong password!!", "");
        assertThat(unknown.statusCode()).isEqualTo(wrong.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).contains("The email, password or code is wrong.");
        assertThat(wrong.body()).contains("The email, password or code is wrong.");
        assertThat(wrong.body()).doesNotContain("wrong password!!");
    }

    @Test
    void guessingAPasswordIsSlowedPerAccountButTheDelayNeverPassesAMinute() {
        for (int i = 0; i < SignInLimiter.FREE_FAILURES; i++) {
            assertThat(from("203.0.113." + i)
                            .signIn("oona@example.com", "guess number " + i + "!", "")
                            .statusCode())
                    .isEqualTo(401);
        }
        HttpResponse<String> held = from("198.51.100.9").signIn("oona@example.com", PASSWORD, "");
        assertThat(held.statusCode())
                .as("even the right password waits its turn")
                .isEqualTo(429);
        assertThat(held.headers().firstValue("Retry-After")).contains("1");

        // An attacker who keeps guessing from ever new addresses: each wait is at most a minute.
        for (int i = 0; i < 12; i++) {
            HttpResponse<String> reply =
                    from("203.0.113." + (100 + i)).signIn("oona@example.com", "guess " + i + " again", "");
            long wait = reply.headers()
                    .firstValue("Retry-After")
                    .map(Long::parseLong)
                    .orElse(0L);
            assertThat(wait).isLessThanOrEqualTo(60);
            clock.advance(Duration.ofSeconds(wait));
            from("203.0.113." + (200 + i)).signIn("oona@example.com", "guess " + i + " more", "");
        }
        clock.advance(SignInLimiter.MAX_ACCOUNT_DELAY);
        assertThat(from("198.51.100.9").signIn("oona@example.com", PASSWORD, "").statusCode())
                .as("a minute after the last guess the owner signs in")
                .isEqualTo(303);
    }

    @Test
    void aValidTotpCodeIsNotHeldByTheAccountsDelaySoNoOneLocksTheOwnerOut() {
        String secret = owner.post("/admin/operators/" + operatorId + "/totp")
                .json()
                .path("secret")
                .asText();
        for (int i = 0; i < 8; i++) {
            from("203.0.113." + i).signIn("oona@example.com", "guess number " + i + "!", "");
        }
        assertThat(from("198.51.100.9")
                        .signIn("oona@example.com", PASSWORD, "123456")
                        .statusCode())
                .isEqualTo(429);
        assertThat(from("198.51.100.9")
                        .signIn("oona@example.com", PASSWORD, Totp.code(secret, clock.instant()))
                        .statusCode())
                .isEqualTo(303);
    }

    @Test
    void oneAddressGetsTenFailuresIn15MinutesWhateverTheAccounts() {
        ConsoleClient attacker = from("203.0.113.50");
        for (int i = 0; i < SignInLimiter.ADDRESS_FAILURES; i++) {
            assertThat(attacker.signIn("user" + i + "@example.com", "guess number " + i + "!", "")
                            .statusCode())
                    .isEqualTo(401);
        }
        assertThat(attacker.signIn("oona@example.com", PASSWORD, "").statusCode())
                .isEqualTo(429);
        assertThat(attacker.signIn("pl_admin_not_a_key_at_all_000000000").statusCode())
                .as("the admin-key sign-in shares the address's limit")
                .isEqualTo(429);
        assertThat(from("198.51.100.4").signIn("oona@example.com", PASSWORD, "").statusCode())
                .as("another address is not held")
                .isEqualTo(303);
        clock.advance(SignInLimiter.ADDRESS_WINDOW);
        assertThat(attacker.signIn("oona@example.com", PASSWORD, "").statusCode())
                .isEqualTo(303);
    }

    @Test
    void aSignInPostWithoutTheFormsTokenIsRefused() {
        ConsoleClient browser = from("198.51.100.5");
        HttpResponse<String> forged = browser.post(
                "/console/sign-in", Map.of("email", "oona@example.com", "password", PASSWORD, "csrf", "x"));
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.headers().allValues("Set-Cookie"))
                .noneMatch(cookie -> cookie.startsWith(ConsoleClient.COOKIE + "="));
        assertThat(browser.get("/console").statusCode()).isEqualTo(303);
    }

    private HttpResponse<String> signIn(String password, String code) {
        return from("198.51.100.7").signIn("oona@example.com", password, code);
    }

    private ConsoleClient from(String address) {
        return new ConsoleClient(node.baseUrl()).withHeader("X-Forwarded-For", address);
    }
}
