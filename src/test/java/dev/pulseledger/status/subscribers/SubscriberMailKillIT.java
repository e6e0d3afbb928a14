package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes as separate processes on one PostgreSQL database send the notices of six incidents to
 * fifty subscribers; one node is SIGKILLed while the mails go out. Every subscriber still gets every
 * notice, each as one message (one Message-ID), and nothing is lost: the killed node's claimed mails
 * go out from the others once its lease ends.
 */
class SubscriberMailKillIT {
    private static final int NODES = 3;
    private static final int SUBSCRIBERS = 50;
    private static final int INCIDENTS = 6;

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void everySubscriberGetsEachNoticeExactlyOnceWhenANodeIsKilledMidSend() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<JarNode> nodes = new ArrayList<>();
        try (MailServer mail = MailServer.start()) {
            for (int i = 0; i < NODES; i++) {
                // The lease of a killed node's mails is the SMTP timeout × 22 + 5 s: 16 s here.
                nodes.add(JarNode.start(url, SubscriberMailTest.flags(mail, "500", "--trusted-proxies", "127.0.0.1")));
            }
            Api admin = nodes.get(1).admin();
            SubscriberMailTest.services(admin, "api");
            List<String> emails = subscribeAndConfirm(nodes, mail);

            for (int i = 1; i <= INCIDENTS; i++) {
                Reply opened = nodes.get(i % NODES)
                        .admin()
                        .post(
                                "/admin/incidents",
                                Map.of(
                                        "title", "Outage " + i,
                                        "impact", "major",
                                        "status", "investigating",
                                        "message", "Looking into it.",
                                        "services", Map.of("api", "major_outage")));
                assertThat(opened.status()).isEqualTo(201);
            }
            Waiting.until("the first notices go out", () -> notices(mail).size() >= 20);
            nodes.getFirst().kill();
            long atKill = distinctNotices(mail);
            System.out.println("SubscriberMailKillIT: node 0 SIGKILLed with " + atKill + " of "
                    + SUBSCRIBERS * INCIDENTS + " notices delivered");
            assertThat(atKill).as("notices delivered when node 0 was killed").isLessThan(SUBSCRIBERS * INCIDENTS);

            // Done when every notice is fanned out and every mail sent: a mail the killed node held waits for its
            // lease (16 s), so anything it would send twice has arrived by then, and counting it is fair.
            boolean done = Waiting.within(
                    Duration.ofMinutes(2),
                    () -> unsent(url) == 0 && distinctNotices(mail) == (long) SUBSCRIBERS * INCIDENTS);
            assertThat(done)
                    .as(() -> "every notice sent after the kill (" + distinctNotices(mail) + " of "
                            + SUBSCRIBERS * INCIDENTS + " arrived); the queue: " + queueState(url))
                    .isTrue();
            assertThat(rows(url, "SELECT COUNT(*) FROM status_mails WHERE status = 'failed'"))
                    .as("mails given up")
                    .isZero();

            Set<String> titles = new TreeSet<>();
            for (int i = 1; i <= INCIDENTS; i++) {
                titles.add("[Acme] Investigating: Outage " + i);
            }
            List<MailServer.Mail> notices = notices(mail);
            for (String email : emails) {
                List<MailServer.Mail> theirs =
                        notices.stream().filter(m -> m.to().equals(email)).toList();
                Map<String, Set<String>> idsBySubject = theirs.stream()
                        .collect(Collectors.groupingBy(
                                MailServer.Mail::subject,
                                Collectors.mapping(m -> m.header("Message-ID").orElseThrow(), Collectors.toSet())));
                assertThat(idsBySubject.keySet()).as("notices %s got", email).isEqualTo(titles);
                idsBySubject.forEach((subject, ids) -> assertThat(ids)
                        .as("messages for %s of %s", email, subject)
                        .hasSize(1));
            }
            // A node killed between the server's 250 and its "sent" commit repeats that one mail, with the same
            // Message-ID (so the receiver drops it); one worker sends one mail at a time, so at most one repeat.
            // A server that answers a mail after the sender's timeout gets it again too (same Message-ID, checked
            // above): then the sender logged the failed attempt, and the repeats are not the kill's to bound.
            long repeats = notices.size() - (long) SUBSCRIBERS * INCIDENTS;
            boolean lateAnswers = nodes.stream().anyMatch(node -> node.output().contains("failed; will retry"));
            System.out.println("SubscriberMailKillIT: " + notices.size() + " notice mails, " + repeats
                    + " repeated with the same Message-ID"
                    + (lateAnswers ? " (a send timed out and was retried)" : ""));
            assertThat(repeats)
                    .as("mails repeated by the killed node")
                    .isBetween(0L, lateAnswers ? Long.MAX_VALUE : 1L);
        } catch (AssertionError | RuntimeException e) {
            for (int i = 0; i < nodes.size(); i++) {
                System.out.println("--- node " + i + " ---\n" + nodes.get(i).output());
            }
            throw e;
        } finally {
            nodes.forEach(JarNode::close);
        }
    }

    /**
     * Subscribers to every service, each from its own client address (as a proxy reports it), each
     * confirmed through the link in its own first confirmation mail. Mails are counted by address, not
     * one by one: on a loaded machine a mail the server took but acknowledged after the 500 ms timeout is
     * sent again, and counting mails then confirmed one address twice and left another unconfirmed, whose
     * six notices were (rightly) never queued: the 6 and 18 "lost" notices of issue 41.
     */
    private static List<String> subscribeAndConfirm(List<JarNode> nodes, MailServer mail) {
        List<String> emails = new ArrayList<>();
        for (int i = 0; i < SUBSCRIBERS; i++) {
            String email = "reader" + i + "@example.org";
            emails.add(email);
            Map<String, Object> body = new HashMap<>();
            body.put("email", email);
            body.put("services", null);
            Reply reply = anonymous(nodes.get(i % NODES))
                    .send("POST", "/status/subscriptions", body, Map.of("X-Forwarded-For", "10.0.0." + (i + 1)));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(202);
        }
        Map<String, MailServer.Mail> confirmations = SubscriberMailTest.confirmationsTo(mail, emails);
        System.out.println(
                "SubscriberMailKillIT: " + mail.count() + " confirmation mails to " + SUBSCRIBERS + " addresses");
        for (int i = 0; i < SUBSCRIBERS; i++) {
            String token =
                    SubscriberMailTest.token(confirmations.get(emails.get(i)).link("/confirm"));
            Reply confirmed = anonymous(nodes.get(i % NODES))
                    .send(
                            "POST",
                            "/status/subscriptions/confirm",
                            "token=" + token,
                            Map.of("Content-Type", "application/x-www-form-urlencoded"));
            assertThat(confirmed.status()).isEqualTo(200);
        }
        return emails;
    }

    /** Notices not yet fanned out plus mails not yet sent (or given up). */
    private static long unsent(String url) {
        return rows(url, "SELECT COUNT(*) FROM status_notices WHERE NOT fanned_out")
                + rows(url, "SELECT COUNT(*) FROM status_mails WHERE status = 'pending'");
    }

    /** The mails by status, claim and last error, for a failure message (no addresses). */
    private static String queueState(String url) {
        StringBuilder state = new StringBuilder();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT kind, status, claim IS NOT NULL, last_error,"
                        + " COUNT(*), MIN(attempts), MAX(attempts), MAX(next_attempt_at) FROM status_mails"
                        + " GROUP BY kind, status, claim IS NOT NULL, last_error")) {
            while (rs.next()) {
                state.append("\n  ")
                        .append(rs.getString(1))
                        .append(' ')
                        .append(rs.getString(2))
                        .append(rs.getBoolean(3) ? " claimed" : "")
                        .append(" error=")
                        .append(rs.getString(4))
                        .append(" n=")
                        .append(rs.getLong(5))
                        .append(" attempts=")
                        .append(rs.getLong(6))
                        .append("..")
                        .append(rs.getLong(7))
                        .append(" next=")
                        .append(java.time.Instant.ofEpochMilli(rs.getLong(8)));
            }
            try (ResultSet perSubscriber = statement.executeQuery("SELECT s.seq, s.created_at, s.confirmed_at,"
                    + " (SELECT COUNT(*) FROM status_mails m WHERE m.subscriber_id = s.id AND m.kind = 'notice')"
                    + " FROM status_subscribers s ORDER BY s.seq")) {
                while (perSubscriber.next()) {
                    state.append("\n  subscriber ")
                            .append(perSubscriber.getLong(1))
                            .append(" created=")
                            .append(perSubscriber.getLong(2))
                            .append(" confirmed=")
                            .append(perSubscriber.getLong(3))
                            .append(" notices=")
                            .append(perSubscriber.getLong(4));
                }
            }
            try (ResultSet notices = statement.executeQuery("SELECT n.seq, n.fanned_out, n.fanout_after, n.created_at,"
                    + " (SELECT COUNT(*) FROM status_mails m WHERE m.notice_id = n.id) FROM status_notices n"
                    + " ORDER BY n.seq")) {
                while (notices.next()) {
                    state.append("\n  notice ")
                            .append(notices.getLong(1))
                            .append(notices.getBoolean(2) ? " fanned out" : " not fanned out")
                            .append(" after=")
                            .append(notices.getLong(3))
                            .append(" created=")
                            .append(notices.getLong(4))
                            .append(" mails=")
                            .append(notices.getLong(5));
                }
            }
        } catch (SQLException e) {
            return e.toString();
        }
        return state.append("\n  now=").append(java.time.Instant.now()).toString();
    }

    private static long rows(String url, String countQuery) {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(countQuery)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Api anonymous(JarNode node) {
        return new Api(node.baseUrl(), null);
    }

    private static List<MailServer.Mail> notices(MailServer mail) {
        return mail.all().stream()
                .filter(m -> !m.subject().equals(SubscriberMailTest.CONFIRM_SUBJECT))
                .toList();
    }

    private static long distinctNotices(MailServer mail) {
        return notices(mail).stream()
                .map(m -> m.to() + " " + m.header("Message-ID").orElseThrow())
                .distinct()
                .count();
    }
}
