package dev.pulseledger.status.subscribers;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.Times;
import dev.pulseledger.status.incidents.NoticeSink;
import dev.pulseledger.status.incidents.StatusNotice;
import dev.pulseledger.store.Ids;
import dev.pulseledger.webhooks.WebhookStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Keeps each notice on the transaction of its change: the {@code status.*} event in the outbox (with a
 * delivery to every status webhook whose services it touches) and a notice row that the mail worker
 * fans out to email subscribers after the commit. Only public services count: a change that touches
 * none of them is nobody's news.
 */
public final class NoticeLog implements NoticeSink {
    private static final String SELECT_PUBLIC = "SELECT id, name FROM services WHERE public ORDER BY position, id";
    private static final String INSERT_NOTICE =
            "INSERT INTO status_notices (id, type, payload, all_services," + " created_at) VALUES (?, ?, ?, ?, ?)";
    private static final String INSERT_SERVICE =
            "INSERT INTO status_notice_services (notice_id, service_id) VALUES (?, ?)";
    private static final String SELECT_WEBHOOKS = "SELECT s.webhook_id FROM status_subscribers s"
            + " WHERE s.kind = 'webhook' AND (s.all_services OR ? OR EXISTS (SELECT 1 FROM"
            + " status_subscriber_services x JOIN status_notice_services y ON y.service_id = x.service_id"
            + " WHERE x.subscriber_id = s.id AND y.notice_id = ?)) ORDER BY s.seq";

    private final Outbox outbox;
    private final WebhookStore webhooks;

    public NoticeLog(Outbox outbox, WebhookStore webhooks) {
        this.outbox = outbox;
        this.webhooks = webhooks;
    }

    @Override
    public void record(Connection connection, StatusNotice notice, Instant at) throws SQLException {
        Map<String, String> publicNames = publicServices(connection);
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
        try (PreparedStatement ps = connection.prepareStatement(INSERT_NOTICE)) {
            ps.setString(1, noticeId);
            ps.setString(2, notice.type().wire());
            ps.setString(3, new String(Json.bytes(payload), StandardCharsets.UTF_8));
            ps.setBoolean(4, services.isEmpty());
            ps.setLong(5, at.toEpochMilli());
            ps.executeUpdate();
        }
        if (!services.isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(INSERT_SERVICE)) {
                for (String service : services) {
                    ps.setString(1, noticeId);
                    ps.setString(2, service);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        webhooks.enqueueTo(connection, appended.getFirst().id(), statusWebhooks(connection, noticeId, services), at);
    }

    private static Map<String, String> publicServices(Connection connection) throws SQLException {
        Map<String, String> names = new LinkedHashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_PUBLIC);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                names.put(rs.getString("id"), rs.getString("name"));
            }
        }
        return names;
    }

    private static List<String> statusWebhooks(Connection connection, String noticeId, List<String> services)
            throws SQLException {
        List<String> ids = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_WEBHOOKS)) {
            ps.setBoolean(1, services.isEmpty());
            ps.setString(2, noticeId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getString(1));
                }
            }
        }
        return ids;
    }
}
