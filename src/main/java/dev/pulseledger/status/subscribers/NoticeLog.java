package dev.pulseledger.status.subscribers;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.Times;
import dev.pulseledger.status.incidents.NoticeSink;
import dev.pulseledger.status.incidents.StatusNotice;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Sql;
import dev.pulseledger.webhooks.WebhookStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Keeps each notice on the transaction of its change: the {@code status.*} event in the outbox (with a
 * delivery to every status webhook whose services it touches) and a notice row that the mail worker
 * fans out to email subscribers after the commit. Only public services count: a change that touches
 * none of them is nobody's news.
 */
public final class NoticeLog implements NoticeSink {
    private static final String SELECT_PUBLIC = "SELECT id, name FROM services WHERE public ORDER BY position, id";
    private static final String INSERT_NOTICE =
            "INSERT INTO status_notices (id, type, payload, all_services, created_at)"
                    + " VALUES (:id, :type, :payload, :all_services, :created_at)";
    private static final String INSERT_SERVICE =
            "INSERT INTO status_notice_services (notice_id, service_id) VALUES (:notice_id, :service_id)";
    private static final String SELECT_WEBHOOKS = "SELECT s.webhook_id FROM status_subscribers s"
            + " WHERE s.kind = 'webhook' AND (s.all_services OR :all_services OR EXISTS (SELECT 1 FROM"
            + " status_subscriber_services x JOIN status_notice_services y ON y.service_id = x.service_id"
            + " WHERE x.subscriber_id = s.id AND y.notice_id = :notice_id)) ORDER BY s.seq";

    private final Outbox outbox;
    private final WebhookStore webhooks;

    public NoticeLog(Outbox outbox, WebhookStore webhooks) {
        this.outbox = outbox;
        this.webhooks = webhooks;
    }

    @Override
    public void record(Connection connection, StatusNotice notice, Instant at) throws SQLException {
        try (Handle sql = Sql.on(connection)) {
            record(connection, sql, notice, at);
        }
    }

    private void record(Connection connection, Handle sql, StatusNotice notice, Instant at) throws SQLException {
        Map<String, String> publicNames = publicServices(sql);
        List<String> services = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, String> service : publicNames.entrySet()) {
            if (notice.services().contains(service.getKey())) {
                services.add(service.getKey());
                names.add(service.getValue());
            }
        }
        if (!notice.services().isEmpty() && services.isEmpty()) {
            return;
        }
        String noticeId = Ids.statusNotice();
        String startsAt = notice.startsAt().map(Times::format).orElse(null);
        String endsAt = notice.endsAt().map(Times::format).orElse(null);
        // The event first: it takes the outbox's lock, so the notice's seq below is drawn in commit order too.
        List<Outbox.Appended> appended = outbox.append(
                connection,
                List.of(new NewEvent(
                        notice.type(),
                        new NewEvent.StatusNoticed(
                                noticeId,
                                notice.subjectId(),
                                notice.title(),
                                notice.status(),
                                notice.message(),
                                services,
                                startsAt,
                                endsAt))),
                at);
        NoticePayload payload = new NoticePayload(
                notice.type().wire(),
                notice.subjectId(),
                notice.title(),
                notice.status(),
                notice.message(),
                names,
                startsAt,
                endsAt);
        sql.createUpdate(INSERT_NOTICE)
                .bind("id", noticeId)
                .bind("type", notice.type().wire())
                .bind("payload", new String(Json.bytes(payload), StandardCharsets.UTF_8))
                .bind("all_services", services.isEmpty())
                .bind("created_at", at.toEpochMilli())
                .execute();
        if (!services.isEmpty()) {
            PreparedBatch batch = sql.prepareBatch(INSERT_SERVICE);
            for (String service : services) {
                batch.bind("notice_id", noticeId).bind("service_id", service).add();
            }
            batch.execute();
        }
        webhooks.enqueueTo(connection, appended.getFirst().id(), statusWebhooks(sql, noticeId, services), at);
    }

    private static Map<String, String> publicServices(Handle sql) {
        Map<String, String> names = new LinkedHashMap<>();
        sql.createQuery(SELECT_PUBLIC)
                .map((rs, ctx) -> Map.entry(rs.getString("id"), rs.getString("name")))
                .forEach(service -> names.put(service.getKey(), service.getValue()));
        return names;
    }

    private static List<String> statusWebhooks(Handle sql, String noticeId, List<String> services) {
        return sql.createQuery(SELECT_WEBHOOKS)
                .bind("all_services", services.isEmpty())
                .bind("notice_id", noticeId)
                .mapTo(String.class)
                .list();
    }
}
