package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a stranger can try on the public subscribe endpoint and the links: probing addresses, header
 * injection, floods, forged and expired tokens. Each gets a clear answer and changes nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriberAbuseTest {

    @Test
    void theAnswerIsTheSameWhetherTheAddressIsNewPendingOrConfirmed() {
        try (MailServer mail = MailServer.start();
                TestNode node = SubscriberMailTest.node(TestStore.SQLITE.newDatabaseUrl(), mail)) {
            Reply fresh = SubscriberMailTest.subscribe(node, "known@example.org", null);
            Waiting.until("the confirmation", () -> mail.to("known@example.org").size() == 1);
            Reply pending = SubscriberMailTest.subscribe(node, "known@example.org", null);
            Waiting.until(
                    "a second confirmation", () -> mail.to("known@example.org").size() == 2);
            SubscriberMailTest.confirm(node, mail.to("known@example.org").getFirst());
            Reply confirmed = SubscriberMailTest.subscribe(node, "KNOWN@example.org", null);
            Reply unknown = SubscriberMailTest.subscribe(node, "stranger@example.org", null);
            for (Reply reply : List.of(pending, confirmed, unknown)) {
                assertThat(reply.status()).isEqualTo(fresh.status()).isEqualTo(202);
                assertThat(reply.text()).isEqualTo(fresh.text());
                assertThat(reply.contentType()).isEqualTo(fresh.contentType());
            }
            // The confirmed address got its manage link, not a second subscription.
            Waiting.until("the manage mail", () -> mail.to("known@example.org").size() == 3);
            assertThat(mail.to("known@example.org").get(2).subject()).isEqualTo("[Acme] Your subscription");
            assertThat(node.admin()
                            .get("/admin/status-subscribers?q=known")
                            .json()
                            .get("data"))
                    .hasSize(1);
        }
    }

    @Test
    void headerInjectionAndMalformedAddressesAre400NamingTheFieldAndNothingIsSent() {
        try (MailServer mail = MailServer.start();
                LogCapture logs = new LogCapture();
                TestNode node = SubscriberMailTest.node(
                        TestStore.SQLITE.newDatabaseUrl(), mail, "--trusted-proxies", "127.0.0.1")) {
            List<String> bad = List.of(
                    "victim@example.org\r\nBcc: everyone@example.org",
                    "victim@example.org\nBcc: everyone@example.org",
                    "victim@example.org, other@example.org",
                    "Victim <victim@example.org>",
                    "no-at-sign.example.org",
                    "a@b",
                    "x".repeat(250) + "@example.org",
                    "");
            int client = 0;
            for (String email : bad) {
                Reply json = node.anonymous()
                        .send(
                                "POST",
                                "/status/subscriptions",
                                Map.of("email", email),
                                Map.of("X-Forwarded-For", "192.0.2." + ++client));
                assertThat(json.status()).as(email).isEqualTo(400);
                assertThat(json.json().get("detail").asText())
                        .as(email)
                        .contains("email")
                        .doesNotContain("victim");
            }
            Reply form = node.anonymous()
                    .send(
                            "POST",
                            "/status/subscriptions",
                            "email=victim%40example.org%0D%0ABcc%3A+everyone%40example.org",
                            Map.of(
                                    "Content-Type", "application/x-www-form-urlencoded",
                                    "X-Forwarded-For", "192.0.2.100"));
            assertThat(form.status()).isEqualTo(400);
            assertThat(form.contentType()).startsWith("text/html");
            assertThat(form.text()).contains("Please check the form", "name@example.com");
            // A good request after them, whose mail arrives: nothing else was sent before it.
            SubscriberMailTest.subscribe(node, "fine@example.org", null);
            Waiting.until("the good request's mail", () -> mail.all().size() == 1);
            assertThat(mail.all().getFirst().to()).isEqualTo("fine@example.org");
            assertThat(node.admin().get("/admin/status-subscribers").json().get("data"))
                    .hasSize(1);
            // Our own log lines (the mail server's logger, in this process, is not ours).
            assertThat(logs.lines().stream().filter(line -> !line.startsWith("com.icegreen")))
                    .noneMatch(line -> line.contains("victim@") || line.contains("fine@example.org"));
        }
    }

    @Test
    void aFloodGets429WithRetryAfterAndNoMailPastTheLimits() {
        try (MailServer mail = MailServer.start();
                TestNode node = SubscriberMailTest.node(
                        TestStore.POSTGRESQL.newDatabaseUrl(), mail, "--trusted-proxies", "127.0.0.1")) {
            Api anonymous = node.anonymous();
            // One client, many addresses: 5 requests an hour, then 429.
            for (int i = 1; i <= 7; i++) {
                Reply reply = anonymous.send(
                        "POST",
                        "/status/subscriptions",
                        Map.of("email", "flood" + i + "@example.org"),
                        Map.of("X-Forwarded-For", "198.51.100.7"));
                assertThat(reply.status()).as("request %d", i).isEqualTo(i <= 5 ? 202 : 429);
                if (i > 5) {
                    assertThat(reply.code()).isEqualTo("rate_limited");
                    assertThat(Long.parseLong(reply.header("Retry-After").orElseThrow()))
                            .isBetween(1L, 3600L);
                }
            }
            // One address, many clients: 3 confirmation mails a day, then 429.
            for (int i = 1; i <= 5; i++) {
                Reply reply = anonymous.send(
                        "POST",
                        "/status/subscriptions",
                        Map.of("email", "target@example.org"),
                        Map.of("X-Forwarded-For", "203.0.113." + i));
                assertThat(reply.status()).as("mail request %d", i).isEqualTo(i <= 3 ? 202 : 429);
            }
            Reply sentinel = anonymous.send(
                    "POST",
                    "/status/subscriptions",
                    Map.of("email", "sentinel@example.org"),
                    Map.of("X-Forwarded-For", "203.0.113.200"));
            assertThat(sentinel.status()).isEqualTo(202);
            Waiting.until("every mail within the limits", () -> mail.all().size() == 5 + 3 + 1);
            Waiting.until(
                    "the sentinel's mail", () -> mail.to("sentinel@example.org").size() == 1);
            assertThat(mail.to("target@example.org")).hasSize(3);
            assertThat(mail.to("flood6@example.org")).isEmpty();
            assertThat(mail.to("flood7@example.org")).isEmpty();
        }
    }

    @Test
    void forgedExpiredAndWrongPurposeTokensGetAClearPageAndChangeNothing() {
        TestClock clock = new TestClock(Instant.parse("2026-11-28T10:00:00Z"));
        try (MailServer mail = MailServer.start();
                TestNode node = TestNode.start(
                        TestNode.config(
                                TestStore.SQLITE.newDatabaseUrl(),
                                "--public-status-page",
                                "--smtp-url",
                                mail.url(),
                                "--mail-from",
                                "status@acme.example",
                                "--status-base-url",
                                SubscriberMailTest.BASE,
                                "--status-page-name",
                                "Acme",
                                "--events-poll-ms",
                                "20"),
                        clock)) {
            SubscriberMailTest.subscribe(node, "late@example.org", null);
            SubscriberMailTest.subscribe(node, "punctual@example.org", null);
            Waiting.until("two confirmations", () -> mail.all().size() == 2);
            String lateToken = SubscriberMailTest.token(
                    mail.to("late@example.org").getFirst().link("/confirm"));

            for (String forged : List.of("forged", "A".repeat(43), "", "x".repeat(500))) {
                Reply page = node.anonymous().get("/status/subscriptions/confirm?token=" + forged);
                assertThat(page.status()).as(forged).isEqualTo(404);
                assertThat(page.text()).contains("This link does not work");
                assertThat(SubscriberMailTest.form(node, "/status/subscriptions/confirm", "token=" + forged)
                                .status())
                        .isEqualTo(404);
                assertThat(node.anonymous()
                                .get("/status/subscriptions/manage?token=" + forged)
                                .status())
                        .isEqualTo(404);
                assertThat(SubscriberMailTest.form(
                                        node,
                                        "/status/subscriptions/unsubscribe?token=" + forged,
                                        "List-Unsubscribe=One-Click")
                                .status())
                        .isEqualTo(404);
            }
            // A confirmation token opens nothing else.
            assertThat(node.anonymous()
                            .get("/status/subscriptions/manage?token=" + lateToken)
                            .status())
                    .isEqualTo(404);
            assertThat(SubscriberMailTest.form(node, "/status/subscriptions/unsubscribe", "token=" + lateToken)
                            .status())
                    .isEqualTo(404);

            SubscriberMailTest.confirm(node, mail.to("punctual@example.org").getFirst());
            clock.advance(Duration.ofHours(24).plusMinutes(1));
            Reply expired = SubscriberMailTest.form(node, "/status/subscriptions/confirm", "token=" + lateToken);
            assertThat(expired.status()).isEqualTo(404);
            assertThat(expired.text()).contains("expired");
            Waiting.until(
                    "the expired request is deleted",
                    () -> node.admin()
                            .get("/admin/status-subscribers?q=late")
                            .json()
                            .get("data")
                            .isEmpty());
            assertThat(node.admin()
                            .get("/admin/status-subscribers?q=punctual")
                            .json()
                            .get("data")
                            .get(0)
                            .get("status")
                            .asText())
                    .isEqualTo("confirmed");
        }
    }
}
