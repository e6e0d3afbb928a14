package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A subscriber's whole life against a real SMTP server (GreenMail), on both stores: subscribe,
 * confirm, notices only for the chosen services, one-click unsubscribe, and nothing after that.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriberMailTest {
    static final String CONFIRM_SUBJECT = "[Acme] Confirm your subscription";

    static final String BASE = "https://status.example.test";

    /** A node that mails through {@code mail}, its page on, retrying fast. */
    static TestNode node(String databaseUrl, MailServer mail, String... more) {
        return TestNode.start(databaseUrl, flags(mail, "2000", more));
    }

    /** The flags of such a node, with the SMTP (and lease-setting) timeout in milliseconds, then {@code more}. */
    static String[] flags(MailServer mail, String timeoutMillis, String... more) {
        return flags(mail.url(), timeoutMillis, more);
    }

    /** The same for the SMTP server at {@code smtpUrl}. */
    static String[] flags(String smtpUrl, String timeoutMillis, String... more) {
        List<String> flags = new java.util.ArrayList<>(List.of(
                "--public-status-page",
                "--status-page-name",
                "Acme",
                "--smtp-url",
                smtpUrl,
                "--mail-from",
                "status@acme.example",
                "--status-base-url",
                BASE,
                "--events-poll-ms",
                "20",
                "--webhook-retry-base-ms",
                "50",
                "--webhook-timeout-ms",
                timeoutMillis));
        flags.addAll(List.of(more));
        return flags.toArray(String[]::new);
    }

    static void services(Api admin, String... ids) {
        for (String id : ids) {
            assertThat(admin.put("/admin/services/" + id, Map.of("name", id.toUpperCase(java.util.Locale.ROOT)))
                            .status())
                    .isIn(200, 201);
        }
    }

    static Reply subscribe(TestNode node, String email, List<String> services) {
        Map<String, Object> body = new HashMap<>();
        body.put("email", email);
        body.put("services", services);
        return node.anonymous().post("/status/subscriptions", body);
    }

    /** Follows the mail's confirmation link as a browser would: the page, then its button. */
    static void confirm(TestNode node, MailServer.Mail mail) {
        String token = token(mail.link("/confirm"));
        Reply page = node.anonymous().get("/status/subscriptions/confirm?token=" + token);
        assertThat(page.status()).isEqualTo(200);
        Reply done = form(node, "/status/subscriptions/confirm", "token=" + token);
        assertThat(done.status()).isEqualTo(200);
        assertThat(done.text()).contains("You are subscribed");
    }

    /**
     * The first confirmation mail to each of {@code addresses}, once every one of them has one. Count
     * addresses, not mails: a mail the server took but acknowledged after the sender's timeout is sent
     * again (SMTP cannot tell the sender it arrived), so one address may hold two while another waits.
     */
    static Map<String, MailServer.Mail> confirmationsTo(MailServer mail, Collection<String> addresses) {
        Waiting.until(
                "a confirmation mail to every address",
                () -> firstConfirmations(mail).keySet().containsAll(addresses));
        return firstConfirmations(mail);
    }

    private static Map<String, MailServer.Mail> firstConfirmations(MailServer mail) {
        Map<String, MailServer.Mail> first = new LinkedHashMap<>();
        for (MailServer.Mail received : mail.all()) {
            if (received.subject().equals(CONFIRM_SUBJECT)) {
                first.putIfAbsent(received.to(), received);
            }
        }
        return first;
    }

    static Reply form(TestNode node, String path, String body) {
        return node.anonymous().send("POST", path, body, Map.of("Content-Type", "application/x-www-form-urlencoded"));
    }

    static String token(String link) {
        return link.substring(link.indexOf("token=") + "token=".length());
    }

    static String incident(Api admin, String title, String service) {
        Reply reply = admin.post(
                "/admin/incidents",
                Map.of(
                        "title", title,
                        "impact", "major",
                        "status", "investigating",
                        "message", "We are looking into it.",
                        "services", Map.of(service, "major_outage")));
        assertThat(reply.status()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void subscribeConfirmNoticesForChosenServicesOneClickUnsubscribeThenNothing(TestStore store) throws Exception {
        try (MailServer mail = MailServer.start();
                TestNode node = node(store.newDatabaseUrl(), mail)) {
            Api admin = node.admin();
            services(admin, "api", "dashboard");

            Reply accepted = subscribe(node, "Alice@Example.org", List.of("api"));
            assertThat(accepted.status()).isEqualTo(202);
            assertThat(subscribe(node, "bob@example.org", null).status()).isEqualTo(202);
            Waiting.until("two confirmation mails", () -> mail.all().size() == 2);
            MailServer.Mail alicesConfirmation = mail.to("alice@example.org").getFirst();
            assertThat(alicesConfirmation.subject()).isEqualTo(CONFIRM_SUBJECT);
            assertThat(alicesConfirmation.header("List-Unsubscribe")).isEmpty();

            // Nothing but the confirmation before the link is followed.
            incident(admin, "Before anyone confirmed", "api");
            confirm(node, alicesConfirmation);
            confirm(node, mail.to("bob@example.org").getFirst());

            incident(admin, "Dashboard slow", "dashboard");
            String apiDown = incident(admin, "API down", "api");
            Waiting.until(
                    "alice's API notice", () -> mail.to("alice@example.org").size() == 2);
            Waiting.until("bob's two notices", () -> mail.to("bob@example.org").size() == 3);

            MailServer.Mail notice = mail.to("alice@example.org").get(1);
            assertThat(notice.subject()).isEqualTo("[Acme] Investigating: API down");
            assertThat(notice.message().getContentType()).startsWith("multipart/alternative");
            assertThat(notice.text()).contains("We are looking into it.", "Affected services: API");
            assertThat(notice.html()).contains("<p>We are looking into it.</p>");
            assertThat(notice.header("Date")).isPresent();
            assertThat(notice.header("Message-ID"))
                    .hasValueSatisfying(id -> assertThat(id).endsWith("@acme.example>"));
            assertThat(notice.header("List-Unsubscribe-Post")).contains("List-Unsubscribe=One-Click");
            String unsubscribe = notice.header("List-Unsubscribe").orElseThrow();
            assertThat(unsubscribe).startsWith("<" + BASE + "/status/subscriptions/unsubscribe?token=");
            assertThat(mail.to("bob@example.org").stream()
                            .map(MailServer.Mail::subject)
                            .toList())
                    .containsExactly(
                            CONFIRM_SUBJECT, "[Acme] Investigating: Dashboard slow", "[Acme] Investigating: API down");

            // RFC 8058: a POST of List-Unsubscribe=One-Click to the header's URL, as a mail provider sends it.
            String oneClick = unsubscribe.substring(BASE.length() + 1, unsubscribe.length() - 1);
            Reply left = form(node, oneClick, "List-Unsubscribe=One-Click");
            assertThat(left.status()).isEqualTo(200);
            assertThat(left.text()).contains("You have left");

            Reply resolved = admin.post(
                    "/admin/incidents/" + apiDown + "/updates", Map.of("status", "resolved", "message", "Fixed."));
            assertThat(resolved.status()).isEqualTo(201);
            Waiting.until(
                    "bob hears of the fix", () -> mail.to("bob@example.org").size() == 4);
            assertThat(mail.to("bob@example.org").get(3).subject()).isEqualTo("[Acme] Resolved: API down");
            assertThat(mail.to("alice@example.org")).hasSize(2);
            // Leaving deleted the address: the operator no longer has it.
            assertThat(admin.get("/admin/status-subscribers?q=alice").json().get("data"))
                    .isEmpty();
            // The link is spent with the address.
            assertThat(form(node, oneClick, "List-Unsubscribe=One-Click").status())
                    .isEqualTo(404);
        }
    }
}
