package dev.pulseledger.operators;

import dev.pulseledger.http.AuditTrail;
import dev.pulseledger.keys.Actor;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The audit log: every change an operator made through the operator API or the console, newest first
 * when read. Paths are stored as requested; they hold ids, never secrets (keys go in headers and bodies).
 */
public final class AuditLog implements AuditTrail {
    static final int MAX_PATH_LENGTH = 500;

    private static final String INSERT = "INSERT INTO audit_log (at, operator_id, operator_name, via, credential,"
            + " method, path, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    /** Each filter is either unset (the ? IS NULL arm) or applied, so one statement serves every query. */
    private static final String SELECT = "SELECT seq, at, operator_id, operator_name, via, credential, method, path,"
            + " status FROM audit_log WHERE seq < ? AND (CAST(? AS TEXT) IS NULL OR operator_id = ?)"
            + " AND at >= ? AND at < ? ORDER BY seq DESC LIMIT ?";

    /** What to read: an operator or everyone, a time range [from, to), a page. */
    public record Query(Optional<String> operatorId, Instant from, Instant to, long beforeSequence, int limit) {}

    private final Database database;
    private final Clock clock;

    public AuditLog(Database database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    @Override
    public void record(Actor actor, String method, String path, int status) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setLong(1, clock.millis());
                ps.setString(2, actor.operatorId());
                ps.setString(3, actor.operatorName());
                ps.setString(4, actor.via());
                ps.setString(5, actor.credential());
                ps.setString(6, method);
                ps.setString(7, path.length() > MAX_PATH_LENGTH ? path.substring(0, MAX_PATH_LENGTH) : path);
                ps.setInt(8, status);
                ps.executeUpdate();
            }
        });
    }

    public Page<AuditEntry> read(Query query) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT)) {
                ps.setLong(1, query.beforeSequence());
                ps.setString(2, query.operatorId().orElse(null));
                ps.setString(3, query.operatorId().orElse(null));
                ps.setLong(4, query.from().toEpochMilli());
                ps.setLong(5, query.to().toEpochMilli());
                ps.setInt(6, query.limit() + 1);
                List<AuditEntry> entries = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        entries.add(new AuditEntry(
                                rs.getLong("seq"),
                                Rows.instant(rs, "at"),
                                rs.getString("operator_id"),
                                rs.getString("operator_name"),
                                rs.getString("via"),
                                rs.getString("credential"),
                                rs.getString("method"),
                                rs.getString("path"),
                                rs.getInt("status")));
                    }
                }
                return Page.of(entries, query.limit(), entry -> Long.toString(entry.sequence()));
            }
        });
    }
}
