package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Which notices a subscriber gets is decided by the order in which its confirmation and each change
 * committed, not by the clocks of the nodes that wrote them (issue 41). Two nodes on one PostgreSQL
 * database, one clock ten minutes ahead: a change written on the fast node before a confirmation on the
 * other is not sent (nothing but the confirmation before the link is followed), and a change written on
 * the other node after a confirmation on the fast one is. Compared by clock, both came out wrong.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConfirmationOrderTest {
    private static final String BEFORE = "[Acme] Investigating: Written before anyone confirmed";
    private static final String AFTER = "[Acme] Investigating: Written after both confirmed";

    @Test
    void noticesFollowTheOrderOfCommitsWhateverTheNodesClocksSay() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (MailServer mail = MailServer.start();
                TestNode ahead = TestNode.start(
                        url,
                        Clock.offset(Clock.systemUTC(), Duration.ofMinutes(10)),
                        SubscriberMailTest.flags(mail, "2000"));
                TestNode onTime = TestNode.start(url, Clock.systemUTC(), SubscriberMailTest.flags(mail, "2000"))) {
            SubscriberMailTest.services(onTime.admin(), "api");
            for (String email : List.of("ada@example.org", "bo@example.org")) {
                assertThat(SubscriberMailTest.subscribe(onTime, email, null).status())
                        .isEqualTo(202);
            }
            Map<String, MailServer.Mail> confirmations =
                    SubscriberMailTest.confirmationsTo(mail, List.of("ada@example.org", "bo@example.org"));

            // Written first, on the node ten minutes ahead; ada confirms afterwards, on the node on time.
            SubscriberMailTest.incident(ahead.admin(), "Written before anyone confirmed", "api");
            SubscriberMailTest.confirm(onTime, confirmations.get("ada@example.org"));
            // bo confirms on the node ahead; the next change is written afterwards, on the node on time.
            SubscriberMailTest.confirm(ahead, confirmations.get("bo@example.org"));
            SubscriberMailTest.incident(onTime.admin(), "Written after both confirmed", "api");

            for (String email : List.of("ada@example.org", "bo@example.org")) {
                Waiting.until(
                        email + "'s notice of the later change",
                        () -> subjects(mail, email).contains(AFTER));
                // Notices go out oldest first, one subscriber's in order: an earlier one would be here by now.
                assertThat(subjects(mail, email)).as(email).doesNotContain(BEFORE);
            }
        }
    }

    private static List<String> subjects(MailServer mail, String email) {
        return mail.to(email).stream().map(MailServer.Mail::subject).toList();
    }
}
