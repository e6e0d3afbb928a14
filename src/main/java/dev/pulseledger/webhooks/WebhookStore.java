package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.LeasedClaims;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.SqlAction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** SQL for webhook endpoints, their queue of deliveries, and the delivery log. */
public final class WebhookStore {
    /** Enough for any provider; a limit so that every event's fan-out stays small. */
    public static final int MAX_WEBHOOKS = 100;

    private static final String INSERT_WEBHOOK =
            "INSERT INTO webhooks (id, url, description, secret, created_at) VALUES (?, ?, ?, ?, ?)";
    private static final String INSERT_SUBSCRIPTION =
            "INSERT INTO webhook_subscriptions (event_type, webhook_id) VALUES (?, ?)";
    private static final String COUNT_WEBHOOKS = "SELECT COUNT(*) FROM webhooks";
    private static final String SELECT_WEBHOOKS =
            "SELECT w.id, w.url, w.description, w.created_at, s.event_type FROM webhooks w"
                    + " LEFT JOIN webhook_subscriptions s ON s.webhook_id = w.id";
    private static final String SELECT_ALL = SELECT_WEBHOOKS + " ORDER BY w.id";
    private static final String SELECT_ONE = SELECT_WEBHOOKS + " WHERE w.id = ?";
    private static final String DELETE_WEBHOOK = "DELETE FROM webhooks WHERE id = ?";

    private static final String SELECT_SUBSCRIBERS =
            "SELECT webhook_id FROM webhook_subscriptions WHERE event_type = ?";
    private static final String RESEND =
            "INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)"
                    + " SELECT ?, webhook_id, event_id, 'pending', 0, ?, ? FROM webhook_deliveries"
                    + " WHERE id = ? AND webhook_id = ?";
    private static final String INSERT_DELIVERY =
            "INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, attempts, next_attempt_at, created_at)"
                    + " VALUES (?, ?, ?, 'pending', 0, ?, ?)";

    /** Claims due deliveries by stamping them with a token and a lease; SKIP LOCKED keeps nodes apart. */
    @SuppressWarnings("InlineFormatString") // the SQL reads better whole, with its one dialect hole
    private static final String CLAIM = "UPDATE webhook_deliveries SET claim = ?, attempts = attempts + 1,"
            + " next_attempt_at = ? WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending'"
            + " AND next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?%s)";

    private static final String SELECT_CLAIMED =
            "SELECT d.id, d.attempts, w.url, w.secret, e.id AS event_id, e.type, e.payload"
                    + " FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"
                    + " JOIN events e ON e.id = d.event_id WHERE d.claim = ? ORDER BY d.seq";
    private static final String FINISH = "UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, claim = NULL,"
            + " finished_at = ? WHERE id = ? AND claim = ?";
    private static final String INSERT_ATTEMPT =
            "INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)"
                    + " VALUES (?, ?, ?, ?, ?, ?)";

    private static final String SELECT_DELIVERIES =
            "SELECT d.seq, d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.created_at,"
                    + " d.finished_at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id"
                    + " WHERE d.webhook_id = ? AND d.seq < ? ORDER BY d.seq DESC LIMIT ?";
    private static final String SELECT_ATTEMPTS =
            "SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error"
                    + " FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id"
                    + " WHERE d.webhook_id = ? AND d.seq <= ? AND d.seq >= ? ORDER BY a.attempt";
    private static final String PRUNE_DELIVERIES = "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM"
            + " webhook_deliveries WHERE status <> 'pending' AND created_at < ? ORDER BY seq LIMIT ?)";

    private static final String COUNT_PENDING = "SELECT COUNT(*) FROM webhook_deliveries WHERE status = 'pending'";

    private final Database database;
    private final String claimSql;

    public WebhookStore(Database database) {
        this.database = database;
        this.claimSql = CLAIM.formatted(database.dialect() == Dialect.POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "");
    }

    /** Outcome of registering a webhook. */
    public enum Creation {
        CREATED,
        LIMIT_REACHED
    }

    public Creation create(Webhook webhook, String secret) {
        return create(webhook, secret, connection -> {});
    }

    /** Registers the webhook and runs {@code alongside} on the same transaction (a status subscriber's row). */
    public Creation create(Webhook webhook, String secret, SqlAction alongside) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(COUNT_WEBHOOKS);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getInt(1) >= MAX_WEBHOOKS) {
                    return Creation.LIMIT_REACHED;
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_WEBHOOK)) {
                ps.setString(1, webhook.id());
                ps.setString(2, webhook.url());
                ps.setString(3, webhook.description());
                ps.setString(4, secret);
                ps.setLong(5, webhook.createdAt().toEpochMilli());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_SUBSCRIPTION)) {
                for (EventType type : webhook.events()) {
                    ps.setString(1, type.wire());
                    ps.setString(2, webhook.id());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            alongside.run(connection);
            return Creation.CREATED;
        });
    }

    /** Every webhook, ordered by id (at most {@link #MAX_WEBHOOKS} exist). */
    public List<Webhook> list() {
        return database.read(connection -> webhooks(connection, SELECT_ALL, Optional.empty()));
    }

    public Optional<Webhook> find(String id) {
        return database.read(connection ->
                webhooks(connection, SELECT_ONE, Optional.of(id)).stream().findFirst());
    }

    private static List<Webhook> webhooks(Connection connection, String sql, Optional<String> id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            if (id.isPresent()) {
                ps.setString(1, id.get());
            }
            Map<String, Webhook> webhooks = new LinkedHashMap<>();
            Map<String, Set<EventType>> events = new HashMap<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String webhookId = rs.getString("id");
                    Set<EventType> types = events.computeIfAbsent(webhookId, k -> EnumSet.noneOf(EventType.class));
                    webhooks.putIfAbsent(
                            webhookId,
                            new Webhook(
                                    webhookId,
                                    rs.getString("url"),
                                    rs.getString("description"),
                                    Set.of(),
                                    Rows.instant(rs, "created_at")));
                    Optional.ofNullable(rs.getString("event_type"))
                            .flatMap(EventType::fromWire)
                            .ifPresent(types::add);
                }
            }
            return webhooks.values().stream()
                    .map(w -> new Webhook(
                            w.id(), w.url(), w.description(), events.getOrDefault(w.id(), Set.of()), w.createdAt()))
                    .toList();
        }
    }

    /** Deletes the webhook with its subscriptions and delivery log; false when there is none. */
    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE_WEBHOOK)) {
                ps.setString(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * Queues the event of one of the webhook's deliveries again, as a new delivery with its own
     * attempts, due at once: an operator's re-send. False when the webhook has no such delivery.
     */
    public boolean resend(String webhookId, String deliveryId, Instant at) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(RESEND)) {
                ps.setString(1, Ids.delivery());
                ps.setLong(2, at.toEpochMilli());
                ps.setLong(3, at.toEpochMilli());
                ps.setString(4, deliveryId);
                ps.setString(5, webhookId);
                return ps.executeUpdate() == 1;
            }
        });
    }

    /**
     * Queues one delivery per subscribed webhook for each event, on the transaction that appends the
     * events ({@link Outbox.Fanout}): a committed event always has its deliveries.
     */
    public void enqueue(Connection connection, List<Outbox.Appended> events, Instant at) throws SQLException {
        Map<EventType, List<String>> subscribers = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(SELECT_SUBSCRIBERS);
                PreparedStatement insert = connection.prepareStatement(INSERT_DELIVERY)) {
            int queued = 0;
            for (Outbox.Appended event : events) {
                List<String> webhookIds = subscribers.get(event.type());
                if (webhookIds == null) {
                    webhookIds = subscribers(select, event.type());
                    subscribers.put(event.type(), webhookIds);
                }
                for (String webhookId : webhookIds) {
                    insert.setString(1, Ids.delivery());
                    insert.setString(2, webhookId);
                    insert.setString(3, event.id());
                    insert.setLong(4, at.toEpochMilli());
                    insert.setLong(5, at.toEpochMilli());
                    insert.addBatch();
                    queued++;
                }
            }
            if (queued > 0) {
                insert.executeBatch();
            }
        }
    }

    /**
     * Queues one delivery of the event to each of {@code webhookIds}, on the transaction that appended
     * it: how status subscribers' webhooks, chosen by service rather than by event type, get theirs.
     */
    public void enqueueTo(Connection connection, String eventId, List<String> webhookIds, Instant at)
            throws SQLException {
        if (webhookIds.isEmpty()) {
            return;
        }
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DELIVERY)) {
            for (String webhookId : webhookIds) {
                insert.setString(1, Ids.delivery());
                insert.setString(2, webhookId);
                insert.setString(3, eventId);
                insert.setLong(4, at.toEpochMilli());
                insert.setLong(5, at.toEpochMilli());
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static List<String> subscribers(PreparedStatement select, EventType type) throws SQLException {
        select.setString(1, type.wire());
        List<String> webhookIds = new ArrayList<>();
        try (ResultSet rs = select.executeQuery()) {
            while (rs.next()) {
                webhookIds.add(rs.getString(1));
            }
        }
        return webhookIds;
    }

    /**
     * Claims up to {@code limit} deliveries due at {@code now} under {@code claim}, leasing them until
     * {@code leaseUntil}: if this node dies mid-attempt, another claims them once the lease ends.
     */
    List<ClaimedDelivery> claim(String claim, Instant now, Instant leaseUntil, int limit) {
        return database.inTransaction(connection -> LeasedClaims.claim(
                connection,
                claimSql,
                SELECT_CLAIMED,
                claim,
                now,
                leaseUntil,
                limit,
                rs -> new ClaimedDelivery(
                        rs.getString("id"),
                        rs.getInt("attempts"),
                        rs.getString("url"),
                        rs.getString("secret"),
                        rs.getString("event_id"),
                        EventType.fromWire(rs.getString("type")).orElseThrow(),
                        rs.getString("payload"))));
    }

    /**
     * Records an attempt and the delivery's new state, if this claim still holds it (a claim whose
     * lease ran out may have passed to another node, whose record then counts).
     */
    void finish(
            ClaimedDelivery delivery,
            String claim,
            Delivery.Attempt attempt,
            DeliveryStatus status,
            Optional<Instant> nextAttemptAt) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(FINISH)) {
                ps.setString(1, status.wire());
                Rows.setOptionalInstant(ps, 2, nextAttemptAt);
                Instant ended = attempt.startedAt().plusMillis(attempt.durationMillis());
                Rows.setOptionalInstant(
                        ps, 3, status == DeliveryStatus.PENDING ? Optional.empty() : Optional.of(ended));
                ps.setString(4, delivery.deliveryId());
                ps.setString(5, claim);
                if (ps.executeUpdate() == 0) {
                    return;
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_ATTEMPT)) {
                ps.setString(1, delivery.deliveryId());
                ps.setInt(2, attempt.number());
                ps.setLong(3, attempt.startedAt().toEpochMilli());
                ps.setLong(4, attempt.durationMillis());
                if (attempt.statusCode().isPresent()) {
                    ps.setInt(5, attempt.statusCode().get());
                } else {
                    ps.setNull(5, Types.INTEGER);
                }
                ps.setString(6, attempt.error().orElse(null));
                ps.executeUpdate();
            }
        });
    }

    /** The webhook's deliveries, newest first, before sequence {@code beforeSeq}, with their attempts. */
    public Page<Delivery> deliveries(String webhookId, long beforeSeq, int limit) {
        return database.read(connection -> {
            List<Delivery> deliveries = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_DELIVERIES)) {
                ps.setString(1, webhookId);
                ps.setLong(2, beforeSeq);
                ps.setInt(3, limit + 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        deliveries.add(delivery(rs));
                    }
                }
            }
            if (deliveries.isEmpty()) {
                return Page.of(deliveries, limit, d -> Long.toString(d.sequence()));
            }
            Map<String, List<Delivery.Attempt>> attempts = attempts(
                    connection,
                    webhookId,
                    deliveries.getFirst().sequence(),
                    deliveries.getLast().sequence());
            List<Delivery> withAttempts = deliveries.stream()
                    .map(d -> new Delivery(
                            d.sequence(),
                            d.id(),
                            d.eventId(),
                            d.eventType(),
                            d.status(),
                            d.attemptCount(),
                            d.nextAttemptAt(),
                            d.createdAt(),
                            d.finishedAt(),
                            attempts.getOrDefault(d.id(), List.of())))
                    .toList();
            return Page.of(withAttempts, limit, d -> Long.toString(d.sequence()));
        });
    }

    private static Delivery delivery(ResultSet rs) throws SQLException {
        DeliveryStatus status = DeliveryStatus.fromWire(rs.getString("status"));
        return new Delivery(
                rs.getLong("seq"),
                rs.getString("id"),
                rs.getString("event_id"),
                EventType.fromWire(rs.getString("type")).orElseThrow(),
                status,
                rs.getInt("attempts"),
                status == DeliveryStatus.PENDING ? Rows.optionalInstant(rs, "next_attempt_at") : Optional.empty(),
                Rows.instant(rs, "created_at"),
                Rows.optionalInstant(rs, "finished_at"),
                List.of());
    }

    private static Map<String, List<Delivery.Attempt>> attempts(
            Connection connection, String webhookId, long highestSeq, long lowestSeq) throws SQLException {
        Map<String, List<Delivery.Attempt>> attempts = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_ATTEMPTS)) {
            ps.setString(1, webhookId);
            ps.setLong(2, highestSeq);
            ps.setLong(3, lowestSeq);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    int code = rs.getInt("status_code");
                    Optional<Integer> statusCode = rs.wasNull() ? Optional.empty() : Optional.of(code);
                    attempts.computeIfAbsent(rs.getString("delivery_id"), k -> new ArrayList<>())
                            .add(new Delivery.Attempt(
                                    rs.getInt("attempt"),
                                    Rows.instant(rs, "started_at"),
                                    rs.getLong("duration_ms"),
                                    statusCode,
                                    Optional.ofNullable(rs.getString("error"))));
                }
            }
        }
        return attempts;
    }

    /** Deletes up to {@code limit} finished deliveries created before {@code cutoff}. */
    int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(PRUNE_DELIVERIES)) {
                ps.setLong(1, cutoff.toEpochMilli());
                ps.setInt(2, limit);
                return ps.executeUpdate();
            }
        });
    }

    /** Deliveries waiting for a first or further attempt, on every node (the partial index counts them). */
    long pendingCount() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(COUNT_PENDING);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }
}
