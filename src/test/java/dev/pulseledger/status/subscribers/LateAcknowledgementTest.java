package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.LateAcknowledgingSmtpProxy;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What broke {@code SubscriberMailKillIT} (issue 41), made to happen every time: a mail server that keeps a
 * mail but answers its final dot after the sender's timeout gets the mail again, because SMTP gives the
 * sender no way to know it arrived. A confirmation then comes twice (each with a working link) and a notice
 * twice with one Message-ID. Whoever counts mails to know that every address has its confirmation stops
 * one address short; its notices are never queued, rightly, since it never confirmed. Counted by address,
 * every subscriber is confirmed and gets its notice.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LateAcknowledgementTest {
    private static final Duration LATE = Duration.ofMillis(2500);

    @Test
    void aMailAcknowledgedAfterTheTimeoutComesTwiceAndConfirmationsAreCountedByAddress() {
        try (MailServer mail = MailServer.start();
                LateAcknowledgingSmtpProxy proxy = LateAcknowledgingSmtpProxy.start(mail.port());
                TestNode node = TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(), SubscriberMailTest.flags(proxy.url(), "500"))) {
            Api admin = node.admin();
            SubscriberMailTest.services(admin, "api");

            proxy.acknowledgeLate(1, LATE);
            assertThat(SubscriberMailTest.subscribe(node, "alice@example.org", null)
                            .status())
                    .isEqualTo(202);
            Waiting.until(
                    "alice's confirmation, sent again after the late answer",
                    () -> mail.to("alice@example.org").size() == 2);
            // Two mails have arrived for two subscriptions, but both are alice's: bob's is only now asked for.
            assertThat(mail.count()).isEqualTo(2);
            assertThat(SubscriberMailTest.subscribe(node, "bob@example.org", List.of("api"))
                            .status())
                    .isEqualTo(202);

            Map<String, MailServer.Mail> confirmations =
                    SubscriberMailTest.confirmationsTo(mail, List.of("alice@example.org", "bob@example.org"));
            assertThat(confirmations).containsOnlyKeys("alice@example.org", "bob@example.org");
            List<MailServer.Mail> alices = mail.to("alice@example.org");
            assertThat(alices.get(0).link("/confirm"))
                    .as("each attempt carries a link of its own")
                    .isNotEqualTo(alices.get(1).link("/confirm"));
            confirmations.values().forEach(confirmation -> SubscriberMailTest.confirm(node, confirmation));
            assertThat(SubscriberMailTest.form(
                                    node,
                                    "/status/subscriptions/confirm",
                                    "token="
                                            + SubscriberMailTest.token(
                                                    alices.get(1).link("/confirm")))
                            .status())
                    .as("the other copy's link still opens the (confirmed) subscription")
                    .isEqualTo(200);

            proxy.acknowledgeLate(1, LATE);
            SubscriberMailTest.incident(admin, "API down", "api");
            Waiting.until(
                    "the notice to both, one of them twice", () -> notices(mail).size() == 3);
            for (String email : List.of("alice@example.org", "bob@example.org")) {
                assertThat(notices(mail).stream()
                                .filter(m -> m.to().equals(email))
                                .map(m -> m.header("Message-ID").orElseThrow())
                                .distinct())
                        .as("the notice to %s, however often it came, is one message", email)
                        .hasSize(1);
            }
        }
    }

    private static List<MailServer.Mail> notices(MailServer mail) {
        return mail.all().stream()
                .filter(m -> m.subject().equals("[Acme] Investigating: API down"))
                .toList();
    }
}
