package dev.pulseledger.events;

import dev.pulseledger.http.Json;
import dev.pulseledger.http.Times;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

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

    private static final String INSERT = "INSERT INTO events (id, type, payload, created_at) VALUES (?, ?, ?, ?)";
    private static final String SELECT_LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM events";
    private static final String PRUNE = "DELETE FROM events WHERE seq IN (SELECT seq FROM events e WHERE"
            + " e.created_at < ? AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)"
            + " ORDER BY seq LIMIT ?)";

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
        try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
            for (NewEvent event : events) {
                String id = Ids.event();
                ps.setString(1, id);
                ps.setString(2, event.type().wire());
                ps.setString(3, envelope(id, event, at));
                ps.setLong(4, at.toEpochMilli());
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

    /** Events of the given types with a sequence number above {@code afterSeq}, oldest first. */
    public List<StoredEvent> after(Set<EventType> types, long afterSeq, int limit) {
        List<EventType> listed = List.copyOf(types);
        // One placeholder per type: only the count of an enum's values comes from here, never input.
        String sql = "SELECT seq, id, type, payload FROM events WHERE type IN ("
                + String.join(", ", Collections.nCopies(listed.size(), "?")) + ") AND seq > ? ORDER BY seq LIMIT ?";
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                for (int i = 0; i < listed.size(); i++) {
                    ps.setString(i + 1, listed.get(i).wire());
                }
                ps.setLong(listed.size() + 1, afterSeq);
                ps.setInt(listed.size() + 2, Math.min(limit, MAX_READ));
                List<StoredEvent> events = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        events.add(new StoredEvent(
                                rs.getLong("seq"),
                                rs.getString("id"),
                                EventType.fromWire(rs.getString("type")).orElseThrow(),
                                rs.getString("payload")));
                    }
                }
                return events;
            }
        });
    }

    /** The sequence number of the newest event, 0 when there is none. */
    public long lastSequence() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_LAST_SEQ);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** Deletes up to {@code limit} events older than {@code cutoff} that no delivery refers to. */
    public int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(PRUNE)) {
                ps.setLong(1, cutoff.toEpochMilli());
                ps.setInt(2, limit);
                return ps.executeUpdate();
            }
        });
    }
}
