package dev.pulseledger.status.heartbeats;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * SQL for heartbeats. A beat is one row update; a miss and a return are each claimed by a
 * conditional update that only one node's statement matches, so each is decided exactly once.
 */
public final class HeartbeatStore {
    private static final String COLUMNS =
            "service_id, grace_seconds, status_when_missed, last_beat_at, missed_at, status_before, incident_id";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM heartbeats WHERE service_id = :service_id";
    private static final String UPSERT = "INSERT INTO heartbeats (service_id, secret_hash, grace_seconds,"
            + " status_when_missed, last_beat_at, created_at)"
            + " VALUES (:service_id, :secret_hash, :grace_seconds, :status_when_missed, :now, :now)"
            + " ON CONFLICT (service_id)"
            + " DO UPDATE SET secret_hash = excluded.secret_hash, grace_seconds = excluded.grace_seconds,"
            + " status_when_missed = excluded.status_when_missed, last_beat_at = excluded.last_beat_at";
    private static final String DELETE = "DELETE FROM heartbeats WHERE service_id = :service_id";
    private static final String BEAT =
            "UPDATE heartbeats SET last_beat_at = :now WHERE secret_hash = :secret_hash AND last_beat_at < :now";
    private static final String KNOWN = "SELECT 1 FROM heartbeats WHERE secret_hash = :secret_hash";
    private static final String SELECT_MISSED = "SELECT " + COLUMNS + " FROM heartbeats WHERE missed_at IS NULL"
            + " AND last_beat_at + grace_seconds * 1000 <= :now ORDER BY last_beat_at LIMIT :limit";
    private static final String SELECT_RETURNED = "SELECT " + COLUMNS + " FROM heartbeats"
            + " WHERE missed_at IS NOT NULL AND last_beat_at > missed_at ORDER BY missed_at LIMIT :limit";
    private static final String CLAIM_MISS = "UPDATE heartbeats SET missed_at = :now, status_before = :status_before"
            + " WHERE service_id = :service_id AND missed_at IS NULL AND last_beat_at = :last_beat_at";
    private static final String SET_INCIDENT =
            "UPDATE heartbeats SET incident_id = :incident_id WHERE service_id = :service_id";
    private static final String CLAIM_RETURN = "UPDATE heartbeats SET missed_at = NULL, status_before = NULL,"
            + " incident_id = NULL WHERE service_id = :service_id AND missed_at = :missed_at";

    private final Database database;

    public HeartbeatStore(Database database) {
        this.database = database;
    }

    /** Sets (or replaces, with a new secret) the service's heartbeat, counting its grace from now. */
    public void put(String serviceId, String secretHash, Duration grace, ServiceStatus whenMissed, Instant now) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(UPSERT)
                        .bind("service_id", serviceId)
                        .bind("secret_hash", secretHash)
                        .bind("grace_seconds", grace.toSeconds())
                        .bind("status_when_missed", whenMissed.wire())
                        .bind("now", now.toEpochMilli())
                        .execute();
            }
        });
    }

    public boolean delete(String serviceId) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE).bind("service_id", serviceId).execute() == 1;
            }
        });
    }

    public Optional<Heartbeat> find(String serviceId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("service_id", serviceId)
                        .map((rs, ctx) -> heartbeat(rs))
                        .findOne();
            }
        });
    }

    /** Records a beat: one row update. False when no heartbeat has this secret. */
    public boolean beat(String secretHash, Instant now) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (sql.createUpdate(BEAT)
                                .bind("now", now.toEpochMilli())
                                .bind("secret_hash", secretHash)
                                .execute()
                        == 1) {
                    return true;
                }
                // Two beats in one millisecond update nothing the second time; the secret is still known.
                return sql.createQuery(KNOWN)
                        .bind("secret_hash", secretHash)
                        .mapTo(Integer.class)
                        .findOne()
                        .isPresent();
            }
        });
    }

    /** Heartbeats silent for longer than their grace at {@code now}, not yet claimed as missed. */
    List<Heartbeat> missed(Instant now, int limit) {
        return list(
                SELECT_MISSED, query -> query.bind("now", now.toEpochMilli()).bind("limit", limit));
    }

    /** Missed heartbeats that have beaten again since. */
    List<Heartbeat> returned(int limit) {
        return list(SELECT_RETURNED, query -> query.bind("limit", limit));
    }

    /** Claims the miss on the caller's transaction; false when another node (or a beat) came first. */
    boolean claimMiss(Connection connection, Heartbeat heartbeat, ServiceStatus before, Instant now) {
        try (Handle sql = Sql.on(connection)) {
            return sql.createUpdate(CLAIM_MISS)
                            .bind("now", now.toEpochMilli())
                            .bind("status_before", before.wire())
                            .bind("service_id", heartbeat.serviceId())
                            .bind("last_beat_at", heartbeat.lastBeatAt().toEpochMilli())
                            .execute()
                    == 1;
        }
    }

    void setIncident(Connection connection, String serviceId, String incidentId) {
        try (Handle sql = Sql.on(connection)) {
            sql.createUpdate(SET_INCIDENT)
                    .bind("incident_id", incidentId)
                    .bind("service_id", serviceId)
                    .execute();
        }
    }

    /** Claims the return on the caller's transaction; false when another node came first. */
    boolean claimReturn(Connection connection, Heartbeat heartbeat) {
        try (Handle sql = Sql.on(connection)) {
            return sql.createUpdate(CLAIM_RETURN)
                            .bind("service_id", heartbeat.serviceId())
                            .bind(
                                    "missed_at",
                                    heartbeat.missedAt().orElseThrow().toEpochMilli())
                            .execute()
                    == 1;
        }
    }

    /** Runs {@code select} with the parameters {@code bound} gives it. */
    private List<Heartbeat> list(String select, UnaryOperator<Query> bound) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return bound.apply(sql.createQuery(select))
                        .map((rs, ctx) -> heartbeat(rs))
                        .list();
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
