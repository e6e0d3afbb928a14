package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.LeasedClaims;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import dev.pulseledger.store.SqlAction;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;

/** SQL for webhook endpoints, their queue of deliveries, and the delivery log. */
public final class WebhookStore {
    /** Enough for any provider; a limit so that every event's fan-out stays small. */
    public static final int MAX_WEBHOOKS = 100;

    private static final String INSERT_WEBHOOK = "INSERT INTO webhooks (id, url, description, secret, created_at)"
            + " VALUES (:id, :url, :description, :secret, :created_at)";
    private static final String INSERT_SUBSCRIPTION =
            "INSERT INTO webhook_subscriptions (event_type, webhook_id) VALUES (:event_type, :webhook_id)";
    private static final String COUNT_WEBHOOKS = "SELECT COUNT(*) FROM webhooks";
    private static final String SELECT_WEBHOOKS =
            "SELECT w.id, w.url, w.description, w.created_at, s.event_type FROM webhooks w"
                    + " LEFT JOIN webhook_subscriptions s ON s.webhook_id = w.id";
    private static final String SELECT_ALL = SELECT_WEBHOOKS + " ORDER BY w.id";
    private static final String SELECT_ONE = SELECT_WEBHOOKS + " WHERE w.id = :id";
    private static final String DELETE_WEBHOOK = "DELETE FROM webhooks WHERE id = :id";

    private static final String DELIVERY_COLUMNS =
            "id, webhook_id, event_id, status, attempts, next_attempt_at, created_at";
    /** Fan-out runs inside ledger rounds, with the outbox's append: hand-written, bound by name. */
    private static final NamedSql SELECT_SUBSCRIBERS =
            NamedSql.parse("SELECT webhook_id FROM webhook_subscriptions WHERE event_type = :event_type");

    private static final NamedSql INSERT_DELIVERY = NamedSql.parse("INSERT INTO webhook_deliveries (" + DELIVERY_COLUMNS
            + ") VALUES (:id, :webhook_id, :event_id, 'pending', 0, :at, :at)");
    private static final String RESEND = "INSERT INTO webhook_deliveries (" + DELIVERY_COLUMNS + ")"
            + " SELECT :new_id, webhook_id, event_id, 'pending', 0, :at, :at FROM webhook_deliveries"
            + " WHERE id = :id AND webhook_id = :webhook_id";

    /** Claims due deliveries by stamping them with a token and a lease; SKIP LOCKED keeps nodes apart. */
    @SuppressWarnings("InlineFormatString") // the SQL reads better whole, with its one dialect hole
    private static final String CLAIM = "UPDATE webhook_deliveries SET claim = :claim, attempts = attempts + 1,"
            + " next_attempt_at = :lease_until WHERE id IN (SELECT id FROM webhook_deliveries"
            + " WHERE status = 'pending' AND next_attempt_at <= :now ORDER BY next_attempt_at LIMIT :limit%s)";

    private static final String SELECT_CLAIMED =
            "SELECT d.id, d.attempts, w.url, w.secret, e.id AS event_id, e.type, e.payload"
                    + " FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id"
                    + " JOIN events e ON e.id = d.event_id WHERE d.claim = :claim ORDER BY d.seq";
    private static final String FINISH = "UPDATE webhook_deliveries SET status = :status,"
            + " next_attempt_at = :next_attempt_at, claim = NULL, finished_at = :finished_at"
            + " WHERE id = :id AND claim = :claim";
    private static final String INSERT_ATTEMPT =
            "INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error)"
                    + " VALUES (:delivery_id, :attempt, :started_at, :duration_ms, :status_code, :error)";

    private static final String SELECT_DELIVERIES =
            "SELECT d.seq, d.id, d.event_id, e.type, d.status, d.attempts, d.next_attempt_at, d.created_at,"
                    + " d.finished_at FROM webhook_deliveries d JOIN events e ON e.id = d.event_id"
                    + " WHERE d.webhook_id = :webhook_id AND d.seq < :before_seq ORDER BY d.seq DESC LIMIT :rows";
    private static final String SELECT_ATTEMPTS =
            "SELECT a.delivery_id, a.attempt, a.started_at, a.duration_ms, a.status_code, a.error"
                    + " FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id"
                    + " WHERE d.webhook_id = :webhook_id AND d.seq <= :highest_seq AND d.seq >= :lowest_seq"
                    + " ORDER BY a.attempt";
    private static final String PRUNE_DELIVERIES = "DELETE FROM webhook_deliveries WHERE seq IN (SELECT seq FROM"
            + " webhook_deliveries WHERE status <> 'pending' AND created_at < :cutoff ORDER BY seq LIMIT :rows)";

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
            try (Handle sql = Sql.on(connection)) {
                if (sql.createQuery(COUNT_WEBHOOKS).mapTo(Integer.class).one() >= MAX_WEBHOOKS) {
                    return Creation.LIMIT_REACHED;
                }
                sql.createUpdate(INSERT_WEBHOOK)
                        .bind("id", webhook.id())
                        .bind("url", webhook.url())
                        .bind("description", webhook.description())
                        .bind("secret", secret)
                        .bind("created_at", webhook.createdAt().toEpochMilli())
                        .execute();
                if (!webhook.events().isEmpty()) {
                    PreparedBatch subscriptions = sql.prepareBatch(INSERT_SUBSCRIPTION);
                    for (EventType type : webhook.events()) {
                        subscriptions
                                .bind("event_type", type.wire())
                                .bind("webhook_id", webhook.id())
                                .add();
                    }
                    subscriptions.execute();
                }
            }
            alongside.run(connection);
            return Creation.CREATED;
        });
    }

    /** Every webhook, ordered by id (at most {@link #MAX_WEBHOOKS} exist). */
    public List<Webhook> list() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return webhooks(sql.createQuery(SELECT_ALL));
            }
        });
    }

    public Optional<Webhook> find(String id) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return webhooks(sql.createQuery(SELECT_ONE).bind("id", id)).stream()
                        .findFirst();
            }
        });
    }

    /** The webhooks of {@code query}'s rows, one row per subscription, each webhook with its event types. */
    private static List<Webhook> webhooks(Query query) {
        Map<String, Webhook> webhooks = new LinkedHashMap<>();
        Map<String, Set<EventType>> events = new HashMap<>();
        query.map((rs, ctx) -> Map.entry(
                        new Webhook(
                                rs.getString("id"),
                                rs.getString("url"),
                                rs.getString("description"),
                                Set.of(),
                                Rows.instant(rs, "created_at")),
                        Optional.ofNullable(rs.getString("event_type"))))
                .forEach(row -> {
                    Webhook webhook = row.getKey();
                    webhooks.putIfAbsent(webhook.id(), webhook);
                    Set<EventType> types = events.computeIfAbsent(webhook.id(), k -> EnumSet.noneOf(EventType.class));
                    row.getValue().flatMap(EventType::fromWire).ifPresent(types::add);
                });
        return webhooks.values().stream()
                .map(w -> new Webhook(
                        w.id(), w.url(), w.description(), events.getOrDefault(w.id(), Set.of()), w.createdAt()))
                .toList();
    }

    /** Deletes the webhook with its subscriptions and delivery log; false when there is none. */
    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE_WEBHOOK).bind("id", id).execute() == 1;
            }
        });
    }

    /**
     * Queues the event of one of the webhook's deliveries again, as a new delivery with its own
     * attempts, due at once: an operator's re-send. False when the webhook has no such delivery.
     */
    public boolean resend(String webhookId, String deliveryId, Instant at) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(RESEND)
                                .bind("new_id", Ids.delivery())
                                .bind("at", at.toEpochMilli())
                                .bind("id", deliveryId)
                                .bind("webhook_id", webhookId)
                                .execute()
                        == 1;
            }
        });
    }

    /**
     * Queues one delivery per subscribed webhook for each event, on the transaction that appends the
     * events ({@link Outbox.Fanout}): a committed event always has its deliveries.
     */
    public void enqueue(Connection connection, List<Outbox.Appended> events, Instant at) throws SQLException {
        Map<EventType, List<String>> subscribers = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(SELECT_SUBSCRIBERS.sql());
                PreparedStatement insert = connection.prepareStatement(INSERT_DELIVERY.sql())) {
            int queued = 0;
            for (Outbox.Appended event : events) {
                List<String> webhookIds = subscribers.get(event.type());
                if (webhookIds == null) {
                    webhookIds = subscribers(select, event.type());
                    subscribers.put(event.type(), webhookIds);
                }
                for (String webhookId : webhookIds) {
                    addDelivery(insert, webhookId, event.id(), at);
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
        try (PreparedStatement insert = connection.prepareStatement(INSERT_DELIVERY.sql())) {
            for (String webhookId : webhookIds) {
                addDelivery(insert, webhookId, eventId, at);
            }
            insert.executeBatch();
        }
    }

    /** Adds one new delivery, due at {@code at}, to {@code insert}'s batch. */
    private static void addDelivery(PreparedStatement insert, String webhookId, String eventId, Instant at)
            throws SQLException {
        INSERT_DELIVERY.setString(insert, "id", Ids.delivery());
        INSERT_DELIVERY.setString(insert, "webhook_id", webhookId);
        INSERT_DELIVERY.setString(insert, "event_id", eventId);
        INSERT_DELIVERY.setLong(insert, "at", at.toEpochMilli());
        insert.addBatch();
    }

    private static List<String> subscribers(PreparedStatement select, EventType type) throws SQLException {
        SELECT_SUBSCRIBERS.setString(select, "event_type", type.wire());
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
            try (Handle sql = Sql.on(connection)) {
                Instant ended = attempt.startedAt().plusMillis(attempt.durationMillis());
                if (sql.createUpdate(FINISH)
                                .bind("status", status.wire())
                                .bind(
                                        "next_attempt_at",
                                        nextAttemptAt.map(Instant::toEpochMilli).orElse(null))
                                .bind("finished_at", status == DeliveryStatus.PENDING ? null : ended.toEpochMilli())
                                .bind("id", delivery.deliveryId())
                                .bind("claim", claim)
                                .execute()
                        == 0) {
                    return;
                }
                sql.createUpdate(INSERT_ATTEMPT)
                        .bind("delivery_id", delivery.deliveryId())
                        .bind("attempt", attempt.number())
                        .bind("started_at", attempt.startedAt().toEpochMilli())
                        .bind("duration_ms", attempt.durationMillis())
                        .bind("status_code", attempt.statusCode().orElse(null))
                        .bind("error", attempt.error().orElse(null))
                        .execute();
            }
        });
    }

    /** The webhook's deliveries, newest first, before sequence {@code beforeSeq}, with their attempts. */
    public Page<Delivery> deliveries(String webhookId, long beforeSeq, int limit) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return deliveries(sql, webhookId, beforeSeq, limit);
            }
        });
    }

    private static Page<Delivery> deliveries(Handle sql, String webhookId, long beforeSeq, int limit) {
        List<Delivery> deliveries = sql.createQuery(SELECT_DELIVERIES)
                .bind("webhook_id", webhookId)
                .bind("before_seq", beforeSeq)
                .bind("rows", limit + 1)
                .map((rs, ctx) -> delivery(rs))
                .list();
        if (deliveries.isEmpty()) {
            return Page.of(deliveries, limit, d -> Long.toString(d.sequence()));
        }
        Map<String, List<Delivery.Attempt>> attempts = attempts(
                sql,
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
            Handle sql, String webhookId, long highestSeq, long lowestSeq) {
        Map<String, List<Delivery.Attempt>> attempts = new HashMap<>();
        sql.createQuery(SELECT_ATTEMPTS)
                .bind("webhook_id", webhookId)
                .bind("highest_seq", highestSeq)
                .bind("lowest_seq", lowestSeq)
                .map((rs, ctx) -> {
                    int code = rs.getInt("status_code");
                    Optional<Integer> statusCode = rs.wasNull() ? Optional.empty() : Optional.of(code);
                    return Map.entry(
                            rs.getString("delivery_id"),
                            new Delivery.Attempt(
                                    rs.getInt("attempt"),
                                    Rows.instant(rs, "started_at"),
                                    rs.getLong("duration_ms"),
                                    statusCode,
                                    Optional.ofNullable(rs.getString("error"))));
                })
                .forEach(attempt -> attempts.computeIfAbsent(attempt.getKey(), k -> new ArrayList<>())
                        .add(attempt.getValue()));
        return attempts;
    }

    /** Deletes up to {@code limit} finished deliveries created before {@code cutoff}. */
    int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(PRUNE_DELIVERIES)
                        .bind("cutoff", cutoff.toEpochMilli())
                        .bind("rows", limit)
                        .execute();
            }
        });
    }

    /** Deliveries waiting for a first or further attempt, on every node (the partial index counts them). */
    long pendingCount() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(COUNT_PENDING).mapTo(Long.class).one();
            }
        });
    }
}
