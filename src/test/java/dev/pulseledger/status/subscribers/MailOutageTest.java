package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The mail server goes away while notices are written, then comes back: every notice reaches every
 * subscriber once, in the order the changes were made.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MailOutageTest {
    private static final int UPDATES = 6;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aFailingMailServerIsRetriedWithBackoffAndEveryNoticeArrivesOnceInOrder(TestStore store) {
        try (MailServer mail = MailServer.start();
                TestNode node = SubscriberMailTest.node(store.newDatabaseUrl(), mail)) {
            Api admin = node.admin();
            SubscriberMailTest.services(admin, "api");
            List<String> people = List.of("ann@example.org", "ben@example.org", "cat@example.org");
            for (String person : people) {
                SubscriberMailTest.subscribe(node, person, null);
            }
            Waiting.until("the confirmations", () -> mail.all().size() == people.size());
            for (String person : people) {
                SubscriberMailTest.confirm(node, mail.to(person).getFirst());
            }

            mail.stop();
            String incident = SubscriberMailTest.incident(admin, "Outage 0", "api");
            for (int i = 1; i < UPDATES; i++) {
                admin.post(
                        "/admin/incidents/" + incident + "/updates",
                        Map.of("status", i == UPDATES - 1 ? "resolved" : "monitoring", "message", "Step " + i));
            }
            Waiting.until("attempts against the stopped server", () -> retried(node) >= people.size());
            mail.restart();

            Waiting.until("every notice to everyone", () -> mail.all().size() == people.size() * UPDATES);
            for (String person : people) {
                List<MailServer.Mail> got = mail.to(person);
                assertThat(got.stream()
                                .map(m -> m.text().lines().skip(2).findFirst().orElse("")))
                        .as(person)
                        .containsExactly("We are looking into it.", "Step 1", "Step 2", "Step 3", "Step 4", "Step 5");
                assertThat(got.stream()
                                .map(m -> m.header("Message-ID").orElseThrow())
                                .distinct())
                        .hasSize(UPDATES);
                assertThat(got.getLast().subject()).isEqualTo("[Acme] Resolved: Outage 0");
            }
        }
    }

    /** Failed attempts the node counted (a metric with no address in it). */
    static double retried(TestNode node) {
        String metrics = node.anonymous().get("/metrics").text();
        return metrics.lines()
                .filter(line ->
                        line.startsWith("pulseledger_status_mails_total{") && line.contains("result=\"retried\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }
}
