package dev.pulseledger.operators;

import dev.pulseledger.http.AuditTrail;
import dev.pulseledger.keys.Actor;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

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
            + " method, path, status) VALUES (:at, :operator_id, :operator_name, :via, :credential, :method, :path, "
            + UNKNOWN_OUTCOME + ") RETURNING seq";

    private static final String SET_OUTCOME = "UPDATE audit_log SET status = :status WHERE seq = :seq";
    /** A change refused or failed changed nothing, so its entry goes. */
    private static final String FORGET = "DELETE FROM audit_log WHERE seq = :seq";
    /** Each filter is either unset (the IS NULL arm) or applied, so one statement serves every query. */
    private static final String SELECT = "SELECT seq, at, operator_id, operator_name, via, credential, method, path,"
            + " status FROM audit_log WHERE seq < :before_seq"
            + " AND (CAST(:operator_id AS TEXT) IS NULL OR operator_id = :operator_id)"
            + " AND at >= :from AND at < :to ORDER BY seq DESC LIMIT :rows";

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
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(INSERT)
                        .bind("at", clock.millis())
                        .bind("operator_id", actor.operatorId())
                        .bind("operator_name", actor.operatorName())
                        .bind("via", actor.via())
                        .bind("credential", actor.credential())
                        .bind("method", method)
                        .bind("path", path.length() > MAX_PATH_LENGTH ? path.substring(0, MAX_PATH_LENGTH) : path)
                        .mapTo(Long.class)
                        .one();
            }
        });
    }

    @Override
    public void end(long entry, int status, boolean changed) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (changed) {
                    sql.createUpdate(SET_OUTCOME)
                            .bind("status", status)
                            .bind("seq", entry)
                            .execute();
                } else {
                    sql.createUpdate(FORGET).bind("seq", entry).execute();
                }
            }
        });
    }

    public Page<AuditEntry> read(Query query) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<AuditEntry> entries = sql.createQuery(SELECT)
                        .bind("before_seq", query.beforeSequence())
                        .bind("operator_id", query.operatorId().orElse(null))
                        .bind("from", query.from().toEpochMilli())
                        .bind("to", query.to().toEpochMilli())
                        .bind("rows", query.limit() + 1)
                        .map((rs, ctx) -> new AuditEntry(
                                rs.getLong("seq"),
                                Rows.instant(rs, "at"),
                                rs.getString("operator_id"),
                                rs.getString("operator_name"),
                                rs.getString("via"),
                                rs.getString("credential"),
                                rs.getString("method"),
                                rs.getString("path"),
                                rs.getInt("status")))
                        .list();
                return Page.of(entries, query.limit(), entry -> Long.toString(entry.sequence()));
            }
        });
    }
}
