package dev.pulseledger.status.subscribers;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * SQL for email subscribers: double opt-in, the tokens of their links (hashed, one purpose each),
 * their choice of services, and the request limits counted in the database so they hold on every node.
 */
public final class SubscriberStore {
    /** How long an unconfirmed request and its confirmation link live (CONTRACT §15). */
    public static final Duration CONFIRM_WITHIN = Duration.ofHours(24);

    /** How long a manage or unsubscribe link in a mail keeps working. */
    public static final Duration LINK_LIFETIME = Duration.ofDays(365);

    /** Subscribe requests one client address may send per hour. */
    public static final int REQUESTS_PER_HOUR = 5;

    /** Confirmation (or manage-link) mails one email address may be sent per day. */
    public static final int MAILS_PER_DAY = 3;

    static final String SUBSCRIBER_COLUMNS =
            "s.seq, s.id, s.kind, s.email, s.webhook_id, s.all_services," + " s.created_at, s.confirmed_at, w.url";
    static final String SUBSCRIBER_FROM = " FROM status_subscribers s LEFT JOIN webhooks w ON w.id = s.webhook_id";

    private static final String INSERT_EMAIL = "INSERT INTO status_subscribers (id, kind, email, all_services,"
            + " created_at, expires_at) VALUES (?, 'email', ?, ?, ?, ?) ON CONFLICT (email) DO NOTHING";
    private static final String SELECT_BY_EMAIL =
            "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM + " WHERE s.email = ?";
    private static final String SELECT_BY_ID = "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM + " WHERE s.id = ?";
    private static final String SELECT_SERVICES =
            "SELECT service_id FROM status_subscriber_services WHERE subscriber_id = ? ORDER BY service_id";
    private static final String SET_PENDING =
            "UPDATE status_subscribers SET all_services = ?, expires_at = ? WHERE id = ? AND confirmed_at IS NULL";
    private static final String SET_ALL = "UPDATE status_subscribers SET all_services = ? WHERE id = ?";
    private static final String DELETE_SERVICES = "DELETE FROM status_subscriber_services WHERE subscriber_id = ?";
    private static final String INSERT_SERVICE =
            "INSERT INTO status_subscriber_services (subscriber_id, service_id) VALUES (?, ?)";
    private static final String INSERT_MAIL = "INSERT INTO status_mails (id, subscriber_id, kind, status,"
            + " next_attempt_at, created_at) VALUES (?, ?, ?, 'pending', ?, ?)";
    private static final String COUNT = "INSERT INTO status_subscribe_counts (scope, key_hash, window_start, count)"
            + " VALUES (?, ?, ?, 1) ON CONFLICT (scope, key_hash, window_start)"
            + " DO UPDATE SET count = status_subscribe_counts.count + 1 RETURNING count";
    private static final String INSERT_TOKEN =
            "INSERT INTO status_subscriber_tokens (hash, subscriber_id, purpose," + " expires_at) VALUES (?, ?, ?, ?)";
    private static final String SELECT_TOKEN = "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM
            + " JOIN status_subscriber_tokens t ON t.subscriber_id = s.id"
            + " WHERE t.hash = ? AND t.purpose = ? AND t.expires_at > ?";
    private static final String DELETE_TOKEN = "DELETE FROM status_subscriber_tokens WHERE hash = ?";
    private static final String CONFIRM = "UPDATE status_subscribers SET confirmed_at = ?, expires_at = NULL"
            + " WHERE id = ? AND confirmed_at IS NULL AND expires_at > ?";
    private static final String CONFIRMED_AFTER = "UPDATE status_subscribers SET confirmed_after_notice ="
            + " (SELECT COALESCE(MAX(seq), 0) FROM status_notices) WHERE id = ?";
    private static final String DELETE = "DELETE FROM status_subscribers WHERE id = ?";
    private static final String DELETE_WEBHOOK = "DELETE FROM webhooks WHERE id = ?";

    private static final String SWEEP_UNCONFIRMED = "DELETE FROM status_subscribers WHERE id IN (SELECT id FROM"
            + " status_subscribers WHERE confirmed_at IS NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?)";
    private static final String SWEEP_TOKENS = "DELETE FROM status_subscriber_tokens WHERE hash IN (SELECT hash FROM"
            + " status_subscriber_tokens WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)";
    private static final String SWEEP_COUNTS = "DELETE FROM status_subscribe_counts WHERE window_start < ?";

    /** Where counted requests are kept apart. */
    private enum Scope {
        REQUEST("request", Duration.ofHours(1), REQUESTS_PER_HOUR),
        MAIL("mail", Duration.ofDays(1), MAILS_PER_DAY);

        final String wire;
        final Duration window;
        final int limit;

        Scope(String wire, Duration window, int limit) {
            this.wire = wire;
            this.window = window;
            this.limit = limit;
        }
    }

    /** What became of a subscribe request. */
    public sealed interface Outcome {
        /** A mail is queued (a confirmation, or a manage link for an address already confirmed). */
        record Queued() implements Outcome {}

        /** The address had its mails for the day; nothing was queued. */
        record TooMany(Instant retryAt) implements Outcome {}
    }

    /** What following a confirmation link did. */
    public sealed interface Confirmation {
        /** Confirmed now (or before); {@code manageToken} opens the subscriber's page. */
        record Confirmed(String manageToken) implements Confirmation {}

        /** No such link, or it expired, or it was used. */
        record Invalid() implements Confirmation {}
    }

    private final Database database;

    public SubscriberStore(Database database) {
        this.database = database;
    }

    /**
     * Counts one subscribe request from a client (by the hash of its address) and returns when it may
     * ask again if it is over {@link #REQUESTS_PER_HOUR}; empty when it is within the limit.
     */
    public Optional<Instant> countRequest(String clientKey, Instant now) {
        return database.inTransaction(connection -> over(connection, Scope.REQUEST, clientKey, now));
    }

    /**
     * Records a request to subscribe {@code email} (already normalised) to {@code choice}. An unknown
     * or unconfirmed address gets (again) a confirmation mail and the chosen services; a confirmed one
     * gets a mail with its manage link, and nothing about it changes.
     */
    public Outcome subscribe(String email, ServiceChoice choice, Instant now) {
        return database.inTransaction(connection -> {
            Optional<Instant> retryAt = over(connection, Scope.MAIL, email, now);
            if (retryAt.isPresent()) {
                return new Outcome.TooMany(retryAt.get());
            }
            Instant expiresAt = now.plus(CONFIRM_WITHIN);
            try (PreparedStatement ps = connection.prepareStatement(INSERT_EMAIL)) {
                ps.setString(1, Ids.statusSubscriber());
                ps.setString(2, email);
                ps.setBoolean(3, choice.all());
                ps.setLong(4, now.toEpochMilli());
                ps.setLong(5, expiresAt.toEpochMilli());
                ps.executeUpdate();
            }
            Subscriber subscriber = one(
                            connection,
                            SELECT_BY_EMAIL + database.dialect().lockClause().replace("FOR UPDATE", "FOR UPDATE OF s"),
                            email)
                    .orElseThrow();
            String kind = "manage";
            if (!subscriber.confirmed()) {
                try (PreparedStatement ps = connection.prepareStatement(SET_PENDING)) {
                    ps.setBoolean(1, choice.all());
                    ps.setLong(2, expiresAt.toEpochMilli());
                    ps.setString(3, subscriber.id());
                    ps.executeUpdate();
                }
                writeServices(connection, subscriber.id(), choice);
                kind = "confirm";
            }
            queueMail(connection, subscriber.id(), kind, now);
            return new Outcome.Queued();
        });
    }

    /** Follows a confirmation link: confirms the subscriber once, spends the token, opens a manage link. */
    public Confirmation confirm(String tokenHash, Instant now) {
        return database.inTransaction(connection -> {
            Optional<Subscriber> found = byToken(connection, tokenHash, TokenPurpose.CONFIRM, now);
            if (found.isEmpty()) {
                return new Confirmation.Invalid();
            }
            try (PreparedStatement ps = connection.prepareStatement(CONFIRM)) {
                ps.setLong(1, now.toEpochMilli());
                ps.setString(2, found.get().id());
                ps.setLong(3, now.toEpochMilli());
                if (ps.executeUpdate() == 1) {
                    confirmedAfter(connection, found.get().id());
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(DELETE_TOKEN)) {
                ps.setString(1, tokenHash);
                ps.executeUpdate();
            }
            return new Confirmation.Confirmed(issueLink(connection, found.get().id(), TokenPurpose.MANAGE, now));
        });
    }

    /**
     * Records the last notice committed before this confirmation commits: the subscriber gets every later
     * one. Read under the outbox's lock, which every notice holds from drawing its seq to its commit (taken
     * last, as appends take it), so no notice can commit between this read and the confirmation's commit.
     */
    private void confirmedAfter(Connection connection, String subscriberId) throws SQLException {
        Outbox.holdAppends(database, connection);
        try (PreparedStatement ps = connection.prepareStatement(CONFIRMED_AFTER)) {
            ps.setString(1, subscriberId);
            ps.executeUpdate();
        }
    }

    /** Whether a confirmation link is good: a live token for a request not yet confirmed. */
    boolean confirmable(String tokenHash, Instant now) {
        return database.read(connection -> byToken(connection, tokenHash, TokenPurpose.CONFIRM, now)
                .filter(s -> !s.confirmed())
                .isPresent());
    }

    /** The confirmed subscriber a manage or unsubscribe link opens, if the link is good. */
    Optional<Subscriber> byToken(String tokenHash, TokenPurpose purpose, Instant now) {
        return database.read(
                connection -> byToken(connection, tokenHash, purpose, now).filter(Subscriber::confirmed));
    }

    private Optional<Subscriber> byToken(Connection connection, String tokenHash, TokenPurpose purpose, Instant now)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SELECT_TOKEN)) {
            ps.setString(1, tokenHash);
            ps.setString(2, purpose.wire());
            ps.setLong(3, now.toEpochMilli());
            return withServices(connection, ps);
        }
    }

    /** Replaces the subscriber's choice of services; false when it is gone. */
    public boolean changeServices(String subscriberId, ServiceChoice choice) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SET_ALL)) {
                ps.setBoolean(1, choice.all());
                ps.setString(2, subscriberId);
                if (ps.executeUpdate() == 0) {
                    return false;
                }
            }
            writeServices(connection, subscriberId, choice);
            return true;
        });
    }

    /** Deletes the subscriber with its tokens, services and unsent mails; a webhook's endpoint goes too. */
    public boolean delete(String subscriberId) {
        return database.inTransaction(connection -> {
            Optional<Subscriber> found = one(connection, SELECT_BY_ID, subscriberId);
            if (found.isEmpty()) {
                return false;
            }
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, subscriberId);
                ps.executeUpdate();
            }
            if (found.get().webhookId().isPresent()) {
                try (PreparedStatement ps = connection.prepareStatement(DELETE_WEBHOOK)) {
                    ps.setString(1, found.get().webhookId().get());
                    ps.executeUpdate();
                }
            }
            return true;
        });
    }

    public Optional<Subscriber> find(String subscriberId) {
        return database.read(connection -> one(connection, SELECT_BY_ID, subscriberId));
    }

    /** Stores a new token for the subscriber's link and returns it; only its hash is kept. */
    static String issueLink(Connection connection, String subscriberId, TokenPurpose purpose, Instant now)
            throws SQLException {
        return issueUntil(connection, subscriberId, purpose, now.plus(LINK_LIFETIME));
    }

    private static String issueUntil(
            Connection connection, String subscriberId, TokenPurpose purpose, Instant expiresAt) throws SQLException {
        String token = SubscriberTokens.newToken();
        try (PreparedStatement ps = connection.prepareStatement(INSERT_TOKEN)) {
            ps.setString(1, SubscriberTokens.hash(token));
            ps.setString(2, subscriberId);
            ps.setString(3, purpose.wire());
            ps.setLong(4, expiresAt.toEpochMilli());
            ps.executeUpdate();
        }
        return token;
    }

    /**
     * Deletes unconfirmed subscribers whose day has passed, expired tokens and old counts, each at
     * most {@code limit} rows; returns how many rows went.
     */
    public int sweep(Instant now, int limit) {
        return database.inTransaction(connection -> {
            int deleted = 0;
            for (String sql : List.of(SWEEP_UNCONFIRMED, SWEEP_TOKENS)) {
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    ps.setLong(1, now.toEpochMilli());
                    ps.setInt(2, limit);
                    deleted += ps.executeUpdate();
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(SWEEP_COUNTS)) {
                ps.setLong(1, now.minus(Duration.ofDays(2)).toEpochMilli());
                deleted += ps.executeUpdate();
            }
            return deleted;
        });
    }

    static void writeServices(Connection connection, String subscriberId, ServiceChoice choice) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(DELETE_SERVICES)) {
            ps.setString(1, subscriberId);
            ps.executeUpdate();
        }
        if (choice.services().isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_SERVICE)) {
            for (String service : choice.services()) {
                ps.setString(1, subscriberId);
                ps.setString(2, service);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static void queueMail(Connection connection, String subscriberId, String kind, Instant now)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(INSERT_MAIL)) {
            ps.setString(1, Ids.statusMail());
            ps.setString(2, subscriberId);
            ps.setString(3, kind);
            ps.setLong(4, now.toEpochMilli());
            ps.setLong(5, now.toEpochMilli());
            ps.executeUpdate();
        }
    }

    /** Counts one more in the key's current window; the window's end when the count is over the limit. */
    private static Optional<Instant> over(Connection connection, Scope scope, String key, Instant now)
            throws SQLException {
        long windowMillis = scope.window.toMillis();
        long windowStart = now.toEpochMilli() - Math.floorMod(now.toEpochMilli(), windowMillis);
        try (PreparedStatement ps = connection.prepareStatement(COUNT)) {
            ps.setString(1, scope.wire);
            ps.setString(2, SubscriberTokens.hash(scope.wire + ":" + key));
            ps.setLong(3, windowStart);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1) > scope.limit
                        ? Optional.of(Instant.ofEpochMilli(windowStart + windowMillis))
                        : Optional.empty();
            }
        }
    }

    static Optional<Subscriber> one(Connection connection, String sql, String value) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, value);
            return withServices(connection, ps);
        }
    }

    private static Optional<Subscriber> withServices(Connection connection, PreparedStatement ps) throws SQLException {
        Optional<Subscriber> row;
        try (ResultSet rs = ps.executeQuery()) {
            row = rs.next() ? Optional.of(row(rs, new TreeSet<>())) : Optional.empty();
        }
        if (row.isEmpty()) {
            return row;
        }
        return Optional.of(
                withServices(row.get(), services(connection, List.of(row.get().id()))));
    }

    static Subscriber withServices(Subscriber s, Map<String, SortedSet<String>> services) {
        return new Subscriber(
                s.seq(),
                s.id(),
                s.kind(),
                s.email(),
                s.webhookId(),
                s.url(),
                s.allServices(),
                services.getOrDefault(s.id(), new TreeSet<>()),
                s.createdAt(),
                s.confirmedAt());
    }

    static Map<String, SortedSet<String>> services(Connection connection, List<String> subscriberIds)
            throws SQLException {
        Map<String, SortedSet<String>> services = new java.util.HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_SERVICES)) {
            for (String id : subscriberIds) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        services.computeIfAbsent(id, k -> new TreeSet<>()).add(rs.getString(1));
                    }
                }
            }
        }
        return services;
    }

    static Subscriber row(ResultSet rs, SortedSet<String> services) throws SQLException {
        Subscriber.Kind kind = "webhook".equals(rs.getString("kind")) ? Subscriber.Kind.WEBHOOK : Subscriber.Kind.EMAIL;
        return new Subscriber(
                rs.getLong("seq"),
                rs.getString("id"),
                kind,
                Optional.ofNullable(rs.getString("email")),
                Optional.ofNullable(rs.getString("webhook_id")),
                Optional.ofNullable(rs.getString("url")),
                rs.getBoolean("all_services"),
                services,
                Rows.instant(rs, "created_at"),
                Rows.optionalInstant(rs, "confirmed_at"));
    }

    /** A new token for the confirmation mail of an unconfirmed subscriber, valid until its request expires. */
    static Optional<String> confirmToken(Connection connection, String subscriberId, Instant now) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(
                "SELECT expires_at FROM status_subscribers WHERE id = ? AND confirmed_at IS NULL AND expires_at > ?")) {
            ps.setString(1, subscriberId);
            ps.setLong(2, now.toEpochMilli());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                Instant expiresAt = Instant.ofEpochMilli(rs.getLong(1));
                return Optional.of(issueUntil(connection, subscriberId, TokenPurpose.CONFIRM, expiresAt));
            }
        }
    }

    /** Subscribers in one page, for the operator (kept here: one place reads subscriber rows). */
    static List<Subscriber> rows(Connection connection, PreparedStatement ps) throws SQLException {
        List<Subscriber> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(row(rs, new TreeSet<>()));
            }
        }
        Map<String, SortedSet<String>> services =
                services(connection, rows.stream().map(Subscriber::id).toList());
        return rows.stream().map(s -> withServices(s, services)).toList();
    }
}
