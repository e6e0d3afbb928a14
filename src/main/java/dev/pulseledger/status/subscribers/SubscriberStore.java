package dev.pulseledger.status.subscribers;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.ChildRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jdbi.v3.core.statement.Query;

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
            "s.seq, s.id, s.kind, s.email, s.webhook_id, s.all_services, s.created_at, s.confirmed_at, w.url";
    static final String SUBSCRIBER_FROM = " FROM status_subscribers s LEFT JOIN webhooks w ON w.id = s.webhook_id";

    private static final String INSERT_EMAIL = "INSERT INTO status_subscribers (id, kind, email, all_services,"
            + " created_at, expires_at) VALUES (:id, 'email', :email, :all_services, :now, :expires_at)"
            + " ON CONFLICT (email) DO NOTHING";
    private static final String SELECT_BY_EMAIL =
            "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM + " WHERE s.email = :email";
    private static final String SELECT_BY_ID = "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM + " WHERE s.id = :id";
    private static final String SELECT_SERVICES = "SELECT subscriber_id, service_id FROM status_subscriber_services"
            + " WHERE subscriber_id IN (<ids>) ORDER BY subscriber_id, service_id";
    private static final String SET_PENDING = "UPDATE status_subscribers SET all_services = :all_services,"
            + " expires_at = :expires_at WHERE id = :id AND confirmed_at IS NULL";
    private static final String SET_ALL = "UPDATE status_subscribers SET all_services = :all_services WHERE id = :id";
    private static final String DELETE_SERVICES =
            "DELETE FROM status_subscriber_services WHERE subscriber_id = :subscriber_id";
    private static final String INSERT_SERVICE = "INSERT INTO status_subscriber_services (subscriber_id, service_id)"
            + " VALUES (:subscriber_id, :service_id)";
    private static final String INSERT_MAIL = "INSERT INTO status_mails (id, subscriber_id, kind, status,"
            + " next_attempt_at, created_at) VALUES (:id, :subscriber_id, :kind, 'pending', :now, :now)";
    private static final String COUNT = "INSERT INTO status_subscribe_counts (scope, key_hash, window_start, count)"
            + " VALUES (:scope, :key_hash, :window_start, 1) ON CONFLICT (scope, key_hash, window_start)"
            + " DO UPDATE SET count = status_subscribe_counts.count + 1 RETURNING count";
    private static final String INSERT_TOKEN = "INSERT INTO status_subscriber_tokens (hash, subscriber_id, purpose,"
            + " expires_at) VALUES (:hash, :subscriber_id, :purpose, :expires_at)";
    private static final String SELECT_TOKEN = "SELECT " + SUBSCRIBER_COLUMNS + SUBSCRIBER_FROM
            + " JOIN status_subscriber_tokens t ON t.subscriber_id = s.id"
            + " WHERE t.hash = :hash AND t.purpose = :purpose AND t.expires_at > :now";
    private static final String DELETE_TOKEN = "DELETE FROM status_subscriber_tokens WHERE hash = :hash";
    private static final String CONFIRM = "UPDATE status_subscribers SET confirmed_at = :now, expires_at = NULL"
            + " WHERE id = :id AND confirmed_at IS NULL AND expires_at > :now";
    private static final String CONFIRMED_AFTER = "UPDATE status_subscribers SET confirmed_after_notice ="
            + " (SELECT COALESCE(MAX(seq), 0) FROM status_notices) WHERE id = :id";
    private static final String DELETE = "DELETE FROM status_subscribers WHERE id = :id";
    private static final String DELETE_WEBHOOK = "DELETE FROM webhooks WHERE id = :id";
    private static final String SELECT_CONFIRMABLE = "SELECT expires_at FROM status_subscribers"
            + " WHERE id = :id AND confirmed_at IS NULL AND expires_at > :now";

    private static final String SWEEP_UNCONFIRMED = "DELETE FROM status_subscribers WHERE id IN (SELECT id FROM"
            + " status_subscribers WHERE confirmed_at IS NULL AND expires_at <= :now ORDER BY expires_at LIMIT :limit)";
    private static final String SWEEP_TOKENS = "DELETE FROM status_subscriber_tokens WHERE hash IN (SELECT hash FROM"
            + " status_subscriber_tokens WHERE expires_at <= :now ORDER BY expires_at LIMIT :limit)";
    private static final String SWEEP_COUNTS = "DELETE FROM status_subscribe_counts WHERE window_start < :before";

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
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return over(sql, Scope.REQUEST, clientKey, now);
            }
        });
    }

    /**
     * Records a request to subscribe {@code email} (already normalised) to {@code choice}. An unknown
     * or unconfirmed address gets (again) a confirmation mail and the chosen services; a confirmed one
     * gets a mail with its manage link, and nothing about it changes.
     */
    public Outcome subscribe(String email, ServiceChoice choice, Instant now) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Instant> retryAt = over(sql, Scope.MAIL, email, now);
                if (retryAt.isPresent()) {
                    return new Outcome.TooMany(retryAt.get());
                }
                Instant expiresAt = now.plus(CONFIRM_WITHIN);
                sql.createUpdate(INSERT_EMAIL)
                        .bind("id", Ids.statusSubscriber())
                        .bind("email", email)
                        .bind("all_services", choice.all())
                        .bind("now", now.toEpochMilli())
                        .bind("expires_at", expiresAt.toEpochMilli())
                        .execute();
                Subscriber subscriber = withServices(
                                sql,
                                sql.createQuery(SELECT_BY_EMAIL
                                                + database.dialect()
                                                        .lockClause()
                                                        .replace("FOR UPDATE", "FOR UPDATE OF s"))
                                        .bind("email", email))
                        .orElseThrow();
                String kind = "manage";
                if (!subscriber.confirmed()) {
                    sql.createUpdate(SET_PENDING)
                            .bind("all_services", choice.all())
                            .bind("expires_at", expiresAt.toEpochMilli())
                            .bind("id", subscriber.id())
                            .execute();
                    writeServices(sql, subscriber.id(), choice);
                    kind = "confirm";
                }
                queueMail(sql, subscriber.id(), kind, now);
                return new Outcome.Queued();
            }
        });
    }

    /** Follows a confirmation link: confirms the subscriber once, spends the token, opens a manage link. */
    public Confirmation confirm(String tokenHash, Instant now) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Subscriber> found = byToken(sql, tokenHash, TokenPurpose.CONFIRM, now);
                if (found.isEmpty()) {
                    return new Confirmation.Invalid();
                }
                if (sql.createUpdate(CONFIRM)
                                .bind("now", now.toEpochMilli())
                                .bind("id", found.get().id())
                                .execute()
                        == 1) {
                    confirmedAfter(connection, sql, found.get().id());
                }
                sql.createUpdate(DELETE_TOKEN).bind("hash", tokenHash).execute();
                return new Confirmation.Confirmed(issueLink(sql, found.get().id(), TokenPurpose.MANAGE, now));
            }
        });
    }

    /**
     * Records the last notice committed before this confirmation commits: the subscriber gets every later
     * one. Read under the outbox's lock, which every notice holds from drawing its seq to its commit (taken
     * last, as appends take it), so no notice can commit between this read and the confirmation's commit.
     */
    private void confirmedAfter(Connection connection, Handle sql, String subscriberId) throws SQLException {
        Outbox.holdAppends(database, connection);
        sql.createUpdate(CONFIRMED_AFTER).bind("id", subscriberId).execute();
    }

    /** Whether a confirmation link is good: a live token for a request not yet confirmed. */
    boolean confirmable(String tokenHash, Instant now) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return byToken(sql, tokenHash, TokenPurpose.CONFIRM, now)
                        .filter(s -> !s.confirmed())
                        .isPresent();
            }
        });
    }

    /** The confirmed subscriber a manage or unsubscribe link opens, if the link is good. */
    Optional<Subscriber> byToken(String tokenHash, TokenPurpose purpose, Instant now) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return byToken(sql, tokenHash, purpose, now).filter(Subscriber::confirmed);
            }
        });
    }

    private static Optional<Subscriber> byToken(Handle sql, String tokenHash, TokenPurpose purpose, Instant now) {
        return withServices(
                sql,
                sql.createQuery(SELECT_TOKEN)
                        .bind("hash", tokenHash)
                        .bind("purpose", purpose.wire())
                        .bind("now", now.toEpochMilli()));
    }

    /** Replaces the subscriber's choice of services; false when it is gone. */
    public boolean changeServices(String subscriberId, ServiceChoice choice) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (sql.createUpdate(SET_ALL)
                                .bind("all_services", choice.all())
                                .bind("id", subscriberId)
                                .execute()
                        == 0) {
                    return false;
                }
                writeServices(sql, subscriberId, choice);
                return true;
            }
        });
    }

    /** Deletes the subscriber with its tokens, services and unsent mails; a webhook's endpoint goes too. */
    public boolean delete(String subscriberId) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Subscriber> found = byId(sql, subscriberId);
                if (found.isEmpty()) {
                    return false;
                }
                sql.createUpdate(DELETE).bind("id", subscriberId).execute();
                if (found.get().webhookId().isPresent()) {
                    sql.createUpdate(DELETE_WEBHOOK)
                            .bind("id", found.get().webhookId().get())
                            .execute();
                }
                return true;
            }
        });
    }

    public Optional<Subscriber> find(String subscriberId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return byId(sql, subscriberId);
            }
        });
    }

    /** The subscriber with its services; empty when there is none with this id. */
    static Optional<Subscriber> byId(Handle sql, String subscriberId) {
        return withServices(sql, sql.createQuery(SELECT_BY_ID).bind("id", subscriberId));
    }

    /** Stores a new token for the subscriber's link and returns it; only its hash is kept. */
    static String issueLink(Handle sql, String subscriberId, TokenPurpose purpose, Instant now) {
        return issueUntil(sql, subscriberId, purpose, now.plus(LINK_LIFETIME));
    }

    private static String issueUntil(Handle sql, String subscriberId, TokenPurpose purpose, Instant expiresAt) {
        String token = SubscriberTokens.newToken();
        sql.createUpdate(INSERT_TOKEN)
                .bind("hash", SubscriberTokens.hash(token))
                .bind("subscriber_id", subscriberId)
                .bind("purpose", purpose.wire())
                .bind("expires_at", expiresAt.toEpochMilli())
                .execute();
        return token;
    }

    /**
     * Deletes unconfirmed subscribers whose day has passed, expired tokens and old counts, each at
     * most {@code limit} rows; returns how many rows went.
     */
    public int sweep(Instant now, int limit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                int deleted = 0;
                for (String sweep : List.of(SWEEP_UNCONFIRMED, SWEEP_TOKENS)) {
                    deleted += sql.createUpdate(sweep)
                            .bind("now", now.toEpochMilli())
                            .bind("limit", limit)
                            .execute();
                }
                deleted += sql.createUpdate(SWEEP_COUNTS)
                        .bind("before", now.minus(Duration.ofDays(2)).toEpochMilli())
                        .execute();
                return deleted;
            }
        });
    }

    static void writeServices(Handle sql, String subscriberId, ServiceChoice choice) {
        sql.createUpdate(DELETE_SERVICES).bind("subscriber_id", subscriberId).execute();
        if (choice.services().isEmpty()) {
            return;
        }
        PreparedBatch batch = sql.prepareBatch(INSERT_SERVICE);
        for (String service : choice.services()) {
            batch.bind("subscriber_id", subscriberId)
                    .bind("service_id", service)
                    .add();
        }
        batch.execute();
    }

    private static void queueMail(Handle sql, String subscriberId, String kind, Instant now) {
        sql.createUpdate(INSERT_MAIL)
                .bind("id", Ids.statusMail())
                .bind("subscriber_id", subscriberId)
                .bind("kind", kind)
                .bind("now", now.toEpochMilli())
                .execute();
    }

    /** Counts one more in the key's current window; the window's end when the count is over the limit. */
    private static Optional<Instant> over(Handle sql, Scope scope, String key, Instant now) {
        long windowMillis = scope.window.toMillis();
        long windowStart = now.toEpochMilli() - Math.floorMod(now.toEpochMilli(), windowMillis);
        int count = sql.createQuery(COUNT)
                .bind("scope", scope.wire)
                .bind("key_hash", SubscriberTokens.hash(scope.wire + ":" + key))
                .bind("window_start", windowStart)
                .mapTo(Integer.class)
                .one();
        return count > scope.limit ? Optional.of(Instant.ofEpochMilli(windowStart + windowMillis)) : Optional.empty();
    }

    /** The one subscriber {@code select} finds, with its services. */
    private static Optional<Subscriber> withServices(Handle sql, Query select) {
        return select.map((rs, ctx) -> row(rs, new TreeSet<>()))
                .findOne()
                .map(row -> withServices(row, services(sql, List.of(row.id()))));
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

    /** The services of each of {@code subscriberIds}, read in one query whatever their number. */
    private static Map<String, SortedSet<String>> services(Handle sql, List<String> subscriberIds) {
        return ChildRows.sortedByParent(sql, SELECT_SERVICES, subscriberIds);
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
    static Optional<String> confirmToken(Handle sql, String subscriberId, Instant now) {
        return sql.createQuery(SELECT_CONFIRMABLE)
                .bind("id", subscriberId)
                .bind("now", now.toEpochMilli())
                .mapTo(Long.class)
                .findOne()
                .map(expiresAt -> issueUntil(sql, subscriberId, TokenPurpose.CONFIRM, Instant.ofEpochMilli(expiresAt)));
    }

    /** Subscribers in one page, for the operator (kept here: one place reads subscriber rows). */
    static List<Subscriber> rows(Handle sql, Query page) {
        List<Subscriber> rows = page.map((rs, ctx) -> row(rs, new TreeSet<>())).list();
        Map<String, SortedSet<String>> services =
                services(sql, rows.stream().map(Subscriber::id).toList());
        return rows.stream().map(s -> withServices(s, services)).toList();
    }
}
