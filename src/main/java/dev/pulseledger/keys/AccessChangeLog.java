package dev.pulseledger.keys;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * The log of access changes that every node follows. Appends happen on the transaction of the change
 * itself and, like the event outbox's, take a transaction-scoped lock on PostgreSQL, so sequence
 * numbers commit in the order they are drawn and a reader paging by {@code seq} never skips one. The read
 * every node polls is hand-written JDBC, bound by name; the rest goes through Jdbi.
 */
public final class AccessChangeLog {
    /** How long a change stays readable: far longer than any node may lag before it reloads everything. */
    public static final Duration RETENTION = Duration.ofDays(1);

    /** How many changes one read returns at most. */
    public static final int MAX_READ = 1000;

    /** Any constant works; this one spells "access" so it is recognisable in pg_locks. */
    private static final long LOCK_KEY = 0x616363657373L;

    private static final String INSERT =
            "INSERT INTO access_changes (kind, subject, created_at) VALUES (:kind, :subject, :created_at)";
    /** Every node polls it: hand-written, bound by name. */
    private static final NamedSql SELECT_AFTER = NamedSql.parse(
            "SELECT seq, kind, subject FROM access_changes WHERE seq > :after_seq ORDER BY seq LIMIT :rows");

    private static final String SELECT_LAST_SEQ = "SELECT COALESCE(MAX(seq), 0) FROM access_changes";
    private static final String PRUNE = "DELETE FROM access_changes WHERE created_at < :before";

    private final Database writes;
    private final Database reads;
    private final Clock clock;

    /**
     * Appends go through the pool of the changes they report; reads go through {@code reads}, the
     * small pool of authentication, so following the log never waits behind the spend writer.
     */
    public AccessChangeLog(Database writes, Database reads, Clock clock) {
        this.writes = writes;
        this.reads = reads;
        this.clock = clock;
    }

    /** Records a change on {@code connection}'s open transaction; it commits or rolls back with it. */
    public void append(Connection connection, AccessChange.Kind kind, String subject) throws SQLException {
        writes.serializeOn(connection, LOCK_KEY);
        try (Handle sql = Sql.on(connection)) {
            sql.createUpdate(INSERT)
                    .bind("kind", kind.column())
                    .bind("subject", subject)
                    .bind("created_at", clock.millis())
                    .execute();
        }
    }

    /** Up to {@link #MAX_READ} changes with a sequence number above {@code afterSeq}, oldest first. */
    public List<AccessChange> after(long afterSeq) {
        return reads.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_AFTER.sql())) {
                SELECT_AFTER.setLong(ps, "after_seq", afterSeq);
                SELECT_AFTER.setLong(ps, "rows", MAX_READ);
                List<AccessChange> changes = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        changes.add(new AccessChange(
                                rs.getLong(1), AccessChange.Kind.fromColumn(rs.getString(2)), rs.getString(3)));
                    }
                }
                return changes;
            }
        });
    }

    /** The sequence number of the newest change, 0 when there is none. */
    public long lastSequence() {
        return reads.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_LAST_SEQ).mapTo(Long.class).one();
            }
        });
    }

    /** Deletes changes older than {@link #RETENTION}. */
    public int prune() {
        return writes.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(PRUNE)
                        .bind("before", clock.instant().minus(RETENTION).toEpochMilli())
                        .execute();
            }
        });
    }
}
