package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestRows;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link MailQueue#prune}: old finished mails and fanned-out notices go, at most a limit of each per call. */
class MailQueuePruneTest {
    private static final Instant CUTOFF = Instant.parse("2026-01-31T00:00:00Z");
    private static final Instant OLD = CUTOFF.minusSeconds(60);
    private static final Instant NEW = CUTOFF.plusSeconds(60);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesFinishedMailsOlderThanTheCutoffAndKeepsPendingOnes(TestStore store) {
        try (Database database = withSubscriber(store)) {
            mail(database, "ml_sent", "sent", OLD, null);
            mail(database, "ml_failed", "failed", OLD, null);
            mail(database, "ml_pending", "pending", OLD, null);
            mail(database, "ml_at_cutoff", "sent", CUTOFF, null);
            mail(database, "ml_new", "sent", NEW, null);

            assertThat(new MailQueue(database).prune(CUTOFF, 10)).isEqualTo(2);
            assertThat(mails(database)).containsExactly("ml_pending", "ml_at_cutoff", "ml_new");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesOldFannedOutNoticesThatNoMailRefersTo(TestStore store) {
        try (Database database = withSubscriber(store)) {
            notice(database, "ntc_done", OLD, true);
            notice(database, "ntc_unfanned", OLD, false);
            notice(database, "ntc_mail_pending", OLD, true);
            notice(database, "ntc_mail_sent", OLD, true);
            notice(database, "ntc_new", NEW, true);
            mail(database, "ml_pending", "pending", OLD, "ntc_mail_pending");
            mail(database, "ml_sent", "sent", OLD, "ntc_mail_sent");

            assertThat(new MailQueue(database).prune(CUTOFF, 10))
                    .as("one mail, two notices")
                    .isEqualTo(3);
            assertThat(notices(database)).containsExactly("ntc_unfanned", "ntc_mail_pending", "ntc_new");
            assertThat(mails(database)).containsExactly("ml_pending");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesAtMostTheLimitOfEachOldestFirstAndReturnsHowManyWent(TestStore store) {
        try (Database database = withSubscriber(store)) {
            for (String id : List.of("1", "2", "3")) {
                mail(database, "ml_" + id, "sent", OLD, null);
                notice(database, "ntc_" + id, OLD, true);
            }
            MailQueue queue = new MailQueue(database);

            assertThat(queue.prune(CUTOFF, 2)).isEqualTo(4);
            assertThat(mails(database)).containsExactly("ml_3");
            assertThat(notices(database)).containsExactly("ntc_3");
            assertThat(queue.prune(CUTOFF, 2)).isEqualTo(2);
            assertThat(mails(database)).isEmpty();
            assertThat(notices(database)).isEmpty();
        }
    }

    /** A fresh database with the subscriber every mail here goes to. */
    private static Database withSubscriber(TestStore store) {
        Database database = TestRows.open(store);
        TestRows.update(
                database,
                "INSERT INTO status_subscribers (id, kind, email, all_services, created_at)"
                        + " VALUES ('sub_1', 'email', 'a@example.test', TRUE, 0)",
                Map.of());
        return database;
    }

    private static void mail(Database database, String id, String status, Instant createdAt, String noticeId) {
        Map<String, Object> values = new HashMap<>();
        values.put("id", id);
        values.put("kind", noticeId == null ? "confirm" : "notice");
        values.put("notice_id", noticeId);
        values.put("status", status);
        values.put("created_at", createdAt.toEpochMilli());
        TestRows.update(
                database,
                "INSERT INTO status_mails (id, subscriber_id, kind, notice_id, status, created_at)"
                        + " VALUES (:id, 'sub_1', :kind, :notice_id, :status, :created_at)",
                values);
    }

    private static void notice(Database database, String id, Instant createdAt, boolean fannedOut) {
        TestRows.update(
                database,
                "INSERT INTO status_notices (id, type, payload, all_services, created_at, fanned_out)"
                        + " VALUES (:id, 'incident.created', '{}', TRUE, :created_at, :fanned_out)",
                Map.of("id", id, "created_at", createdAt.toEpochMilli(), "fanned_out", fannedOut));
    }

    private static List<String> mails(Database database) {
        return TestRows.strings(database, "SELECT id FROM status_mails ORDER BY seq");
    }

    private static List<String> notices(Database database) {
        return TestRows.strings(database, "SELECT id FROM status_notices ORDER BY seq");
    }
}
