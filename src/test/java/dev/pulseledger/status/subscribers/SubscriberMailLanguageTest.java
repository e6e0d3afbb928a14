package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Mails and subscribers' pages are in the page's language (CONTRACT §15, §16): German page, German mails. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SubscriberMailLanguageTest {

    @Test
    void aGermanPageSendsAGermanConfirmationAndNoticeAndShowsGermanSubscriberPages() {
        try (MailServer mail = MailServer.start();
                TestNode node =
                        SubscriberMailTest.node(TestStore.SQLITE.newDatabaseUrl(), mail, "--status-language", "de")) {
            Api admin = node.admin();
            SubscriberMailTest.services(admin, "api");

            assertThat(SubscriberMailTest.subscribe(node, "erika@example.org", List.of("api"))
                            .status())
                    .isEqualTo(202);
            Waiting.until("the confirmation mail", () -> mail.all().size() == 1);
            MailServer.Mail confirmation = mail.all().getFirst();
            assertThat(confirmation.subject()).isEqualTo("[Acme] Bestätigen Sie Ihr Abonnement");
            assertThat(confirmation.text())
                    .contains("hat die Statusmeldungen von Acme für diese Adresse bestellt")
                    .contains("Abonnement bestätigen: " + SubscriberMailTest.BASE);
            assertThat(confirmation.html()).contains("<html lang=\"de\">");

            assertThat(node.anonymous().get("/status").text()).contains("Meldungen per E-Mail erhalten", "Abonnieren");
            String token = SubscriberMailTest.token(confirmation.link("/confirm"));
            assertThat(node.anonymous()
                            .get("/status/subscriptions/confirm?token=" + token)
                            .text())
                    .contains("<html lang=\"de\">", "<h1>Bestätigen Sie Ihr Abonnement</h1>");
            Reply confirmed = SubscriberMailTest.form(node, "/status/subscriptions/confirm", "token=" + token);
            assertThat(confirmed.status()).isEqualTo(200);
            assertThat(confirmed.text())
                    .contains("<h1>Sie haben abonniert</h1>", "Meldungen gehen an <strong>erika@example.org</strong>.")
                    .contains("Dienste speichern", "Abmelden und meine Adresse löschen")
                    .doesNotContain("Your subscription", "Save services");
            SubscriberMailTest.incident(admin, "API down", "api");
            Waiting.until("the notice", () -> mail.all().size() == 2);
            MailServer.Mail notice = mail.all().get(1);
            assertThat(notice.subject()).isEqualTo("[Acme] Wird untersucht: API down");
            assertThat(notice.text())
                    .contains("We are looking into it.", "Betroffene Dienste: API", "Aktueller Status: ")
                    .contains("Dienste ändern oder abmelden: ", "Abmelden: ")
                    .doesNotContain("Affected services", "Unsubscribe");
            assertThat(notice.html()).contains("<html lang=\"de\">", "Betroffene Dienste:");
        }
    }
}
