package dev.pulseledger.events;

import dev.pulseledger.http.Json;
import dev.pulseledger.http.Times;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Sql;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Handle;

/**
 * The event outbox: appends events on the transaction of the change that causes them, so an event
 * exists exactly when its change committed, and reads them back in commit order.
 *
 * <p>Readers page through events by {@code seq}. That is only safe if no event can commit with a
 * lower {@code seq} than one a reader has already seen, so appends take a transaction-scoped lock
 * on PostgreSQL (SQLite has one writer at a time anyway): sequence numbers are then drawn and
 * committed in the same order. The lock is the last one an appending transaction takes, which
 * keeps it out of any lock cycle, and it is only taken when there is an event to append.
 */
public final class Outbox {
    /** Events older than this are deleted once no webhook delivery still needs them. */
    public static final Duration RETENTION = Duration.ofDays(30);

    /** How many events one read returns at most. */
    public static final int MAX_READ = 500;

    /** Any constant works; this one spells "outbox" so it is recognisable in pg_locks. */
    private static final long LOCK_KEY = 0x6f7574626f78L;

    /** Runs inside ledger rounds, on the write path: hand-written, bound by name. */
    private static final NamedSql INSERT = NamedSql.parse(
            "INSERT INTO events (id, type, payload, created_at) VALUES (:id, :type, :payload, :created_at)");

    private static final String SELECT_AFTER = "SELECT seq, id, type, payload FROM events WHERE type IN (<types>)"
            + " AND seq > :after_seq ORDER BY seq LIMIT :rows";
    private static final String SELECT_LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM events";
    private static final String PRUNE = "DELETE FROM events WHERE seq IN (SELECT seq FROM events e WHERE"
            + " e.created_at < :cutoff AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)"
            + " ORDER BY seq LIMIT :rows)";

    /** Hears, inside the appending transaction, of events just appended; webhooks queue deliveries. */
    @FunctionalInterface
    public interface Fanout {
        void appended(Connection connection, List<Appended> events, Instant at) throws SQLException;
    }

    /** An event just appended: enough to route it. */
    public record Appended(String id, EventType type) {}

    private final Database database;
    private final Fanout fanout;

    public Outbox(Database database, Fanout fanout) {
        this.database = database;
        this.fanout = fanout;
    }

    /**
     * Appends the events on {@code connection}'s open transaction; they commit or roll back with it.
     * Returns them as appended, in order, with their ids.
     */
    public List<Appended> append(Connection connection, List<NewEvent> events, Instant at) throws SQLException {
        if (events.isEmpty()) {
            return List.of();
        }
        database.serializeOn(connection, LOCK_KEY);
        List<Appended> appended = new ArrayList<>(events.size());
        try (PreparedStatement ps = connection.prepareStatement(INSERT.sql())) {
            for (NewEvent event : events) {
                String id = Ids.event();
                INSERT.setString(ps, "id", id);
                INSERT.setString(ps, "type", event.type().wire());
                INSERT.setString(ps, "payload", envelope(id, event, at));
                INSERT.setLong(ps, "created_at", at.toEpochMilli());
                ps.addBatch();
                appended.add(new Appended(id, event.type()));
            }
            ps.executeBatch();
        }
        fanout.appended(connection, appended, at);
        return List.copyOf(appended);
    }

    /**
     * Waits for the appends in progress on {@code database} and holds new ones off until the transaction
     * of {@code connection} ends: what it then reads of the outbox (or of rows written under the same
     * lock, such as status notices) is everything committed before it, and nothing appended later can
     * commit before it. Take it last, as appends do, to stay out of lock cycles.
     */
    public static void holdAppends(Database database, Connection connection) throws SQLException {
        database.serializeOn(connection, LOCK_KEY);
    }

    /** The envelope subscribers receive, shaped like Statuspage's and Stripe's. */
    private record Envelope(String id, String type, String createdAt, NewEvent.Data data) {}

    private static String envelope(String id, NewEvent event, Instant at) {
        return new String(
                Json.bytes(new Envelope(id, event.type().wire(), Times.format(at), event.data())),
                StandardCharsets.UTF_8);
    }

    /**
     * Events of the given types with a sequence number above {@code afterSeq}, oldest first; none, without a
     * query, for no types (an empty {@code IN ()} is an error on PostgreSQL).
     */
    public List<StoredEvent> after(Set<EventType> types, long afterSeq, int limit) {
        if (types.isEmpty()) {
            return List.of();
        }
        List<String> wired = types.stream().map(EventType::wire).toList();
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_AFTER)
                        .bindList("types", wired)
                        .bind("after_seq", afterSeq)
                        .bind("rows", Math.min(limit, MAX_READ))
                        .map((rs, ctx) -> new StoredEvent(
                                rs.getLong("seq"),
                                rs.getString("id"),
                                EventType.fromWire(rs.getString("type")).orElseThrow(),
                                rs.getString("payload")))
                        .list();
            }
        });
    }

    /** The sequence number of the newest event, 0 when there is none. */
    public long lastSequence() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_LAST_SEQ).mapTo(Long.class).one();
            }
        });
    }

    /** Deletes up to {@code limit} events older than {@code cutoff} that no delivery refers to. */
    public int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(PRUNE)
                        .bind("cutoff", cutoff.toEpochMilli())
                        .bind("rows", limit)
                        .execute();
            }
        });
    }
}
