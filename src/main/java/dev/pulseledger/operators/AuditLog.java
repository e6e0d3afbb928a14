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
    /** The status of an entry whose change has not answered, or whose node stopped before it did. */
    static final int UNKNOWN_OUTCOME = 0;

    /** Written before the change runs, with status 0: its outcome is not known yet. */
    private static final String INSERT = "INSERT INTO audit_log (at, operator_id, operator_name, via, credential,"
            + " method, path, status) VALUES (?, ?, ?, ?, ?, ?, ?, " + UNKNOWN_OUTCOME + ") RETURNING seq";

    private static final String SET_OUTCOME = "UPDATE audit_log SET status = ? WHERE seq = ?";
    /** A change refused or failed changed nothing, so its entry goes. */
    private static final String FORGET = "DELETE FROM audit_log WHERE seq = ?";
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
    public long begin(Actor actor, String method, String path) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setLong(1, clock.millis());
                ps.setString(2, actor.operatorId());
                ps.setString(3, actor.operatorName());
                ps.setString(4, actor.via());
                ps.setString(5, actor.credential());
                ps.setString(6, method);
                ps.setString(7, path.length() > MAX_PATH_LENGTH ? path.substring(0, MAX_PATH_LENGTH) : path);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public void end(long entry, int status, boolean changed) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(changed ? SET_OUTCOME : FORGET)) {
                if (changed) {
                    ps.setInt(1, status);
                    ps.setLong(2, entry);
                } else {
                    ps.setLong(1, entry);
                }
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
