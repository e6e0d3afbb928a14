package dev.pulseledger.status.heartbeats;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for heartbeats. A beat is one row update; a miss and a return are each claimed by a
 * conditional update that only one node's statement matches, so each is decided exactly once.
 */
public final class HeartbeatStore {
    private static final String COLUMNS =
            "service_id, grace_seconds, status_when_missed, last_beat_at, missed_at," + " status_before, incident_id";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM heartbeats WHERE service_id = ?";
    private static final String UPSERT = "INSERT INTO heartbeats (service_id, secret_hash, grace_seconds,"
            + " status_when_missed, last_beat_at, created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (service_id)"
            + " DO UPDATE SET secret_hash = excluded.secret_hash, grace_seconds = excluded.grace_seconds,"
            + " status_when_missed = excluded.status_when_missed, last_beat_at = excluded.last_beat_at";
    private static final String DELETE = "DELETE FROM heartbeats WHERE service_id = ?";
    private static final String BEAT =
            "UPDATE heartbeats SET last_beat_at = ? WHERE secret_hash = ? AND last_beat_at < ?";
    private static final String KNOWN = "SELECT 1 FROM heartbeats WHERE secret_hash = ?";
    private static final String SELECT_MISSED = "SELECT " + COLUMNS + " FROM heartbeats WHERE missed_at IS NULL"
            + " AND last_beat_at + grace_seconds * 1000 <= ? ORDER BY last_beat_at LIMIT ?";
    private static final String SELECT_RETURNED = "SELECT " + COLUMNS + " FROM heartbeats"
            + " WHERE missed_at IS NOT NULL AND last_beat_at > missed_at ORDER BY missed_at LIMIT ?";
    private static final String CLAIM_MISS = "UPDATE heartbeats SET missed_at = ?, status_before = ?"
            + " WHERE service_id = ? AND missed_at IS NULL AND last_beat_at = ?";
    private static final String SET_INCIDENT = "UPDATE heartbeats SET incident_id = ? WHERE service_id = ?";
    private static final String CLAIM_RETURN = "UPDATE heartbeats SET missed_at = NULL, status_before = NULL,"
            + " incident_id = NULL WHERE service_id = ? AND missed_at = ?";

    private final Database database;

    public HeartbeatStore(Database database) {
        this.database = database;
    }

    /** Sets (or replaces, with a new secret) the service's heartbeat, counting its grace from now. */
    public void put(String serviceId, String secretHash, Duration grace, ServiceStatus whenMissed, Instant now) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(UPSERT)) {
                ps.setString(1, serviceId);
                ps.setString(2, secretHash);
                ps.setLong(3, grace.toSeconds());
                ps.setString(4, whenMissed.wire());
                ps.setLong(5, now.toEpochMilli());
                ps.setLong(6, now.toEpochMilli());
                ps.executeUpdate();
            }
        });
    }

    public boolean delete(String serviceId) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, serviceId);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public Optional<Heartbeat> find(String serviceId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, serviceId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(heartbeat(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Records a beat: one row update. False when no heartbeat has this secret. */
    public boolean beat(String secretHash, Instant now) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(BEAT)) {
                ps.setLong(1, now.toEpochMilli());
                ps.setString(2, secretHash);
                ps.setLong(3, now.toEpochMilli());
                if (ps.executeUpdate() == 1) {
                    return true;
                }
            }
            // Two beats in one millisecond update nothing the second time; the secret is still known.
            try (PreparedStatement ps = connection.prepareStatement(KNOWN)) {
                ps.setString(1, secretHash);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** Heartbeats silent for longer than their grace at {@code now}, not yet claimed as missed. */
    List<Heartbeat> missed(Instant now, int limit) {
        return list(SELECT_MISSED, ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setInt(2, limit);
        });
    }

    /** Missed heartbeats that have beaten again since. */
    List<Heartbeat> returned(int limit) {
        return list(SELECT_RETURNED, ps -> ps.setInt(1, limit));
    }

    /** Claims the miss on the caller's transaction; false when another node (or a beat) came first. */
    boolean claimMiss(Connection connection, Heartbeat heartbeat, ServiceStatus before, Instant now)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(CLAIM_MISS)) {
            ps.setLong(1, now.toEpochMilli());
            ps.setString(2, before.wire());
            ps.setString(3, heartbeat.serviceId());
            ps.setLong(4, heartbeat.lastBeatAt().toEpochMilli());
            return ps.executeUpdate() == 1;
        }
    }

    void setIncident(Connection connection, String serviceId, String incidentId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SET_INCIDENT)) {
            ps.setString(1, incidentId);
            ps.setString(2, serviceId);
            ps.executeUpdate();
        }
    }

    /** Claims the return on the caller's transaction; false when another node came first. */
    boolean claimReturn(Connection connection, Heartbeat heartbeat) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(CLAIM_RETURN)) {
            ps.setString(1, heartbeat.serviceId());
            ps.setLong(2, heartbeat.missedAt().orElseThrow().toEpochMilli());
            return ps.executeUpdate() == 1;
        }
    }

    /** The parameters of a query. */
    @FunctionalInterface
    private interface Parameters {
        void set(PreparedStatement ps) throws SQLException;
    }

    private List<Heartbeat> list(String sql, Parameters parameters) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                parameters.set(ps);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Heartbeat> heartbeats = new ArrayList<>();
                    while (rs.next()) {
                        heartbeats.add(heartbeat(rs));
                    }
                    return heartbeats;
                }
            }
        });
    }

    private static Heartbeat heartbeat(ResultSet rs) throws SQLException {
        return new Heartbeat(
                rs.getString("service_id"),
                Duration.ofSeconds(rs.getLong("grace_seconds")),
                ServiceStatus.fromWire(rs.getString("status_when_missed")).orElse(ServiceStatus.MAJOR_OUTAGE),
                Rows.instant(rs, "last_beat_at"),
                Rows.optionalInstant(rs, "missed_at"),
                Optional.ofNullable(rs.getString("status_before")).flatMap(ServiceStatus::fromWire),
                Optional.ofNullable(rs.getString("incident_id")));
    }
}
