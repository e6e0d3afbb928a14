package dev.pulseledger.status.upstream;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Update;

/**
 * SQL for services' upstreams. A poll is claimed by moving the row's next poll time with a
 * conditional update, so each due upstream is read by one node, whichever claims it first.
 */
public final class UpstreamStore {
    private static final String COLUMNS = "service_id, url, component, etag, checked_at, unreachable_since, last_error";
    private static final String SELECT_ONE =
            "SELECT " + COLUMNS + " FROM service_upstreams WHERE service_id = :service_id";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM service_upstreams";
    private static final String SELECT_DUE = "SELECT " + COLUMNS + ", next_poll_at FROM service_upstreams"
            + " WHERE next_poll_at <= :now ORDER BY next_poll_at LIMIT :limit";
    private static final String CLAIM = "UPDATE service_upstreams SET next_poll_at = :next_poll_at"
            + " WHERE service_id = :service_id AND next_poll_at = :due_at";
    private static final String UPSERT = "INSERT INTO service_upstreams (service_id, url, component, next_poll_at)"
            + " VALUES (:service_id, :url, :component, :next_poll_at) ON CONFLICT (service_id) DO UPDATE SET url = excluded.url,"
            + " component = excluded.component, etag = NULL, next_poll_at = excluded.next_poll_at";
    private static final String DELETE = "DELETE FROM service_upstreams WHERE service_id = :service_id";
    /** Where a read's outcome is written: to the upstream read, unless it was replaced meanwhile. */
    private static final String WHERE_READ = " WHERE service_id = :service_id AND url = :url";

    private static final String READ_OK = "UPDATE service_upstreams SET etag = :etag, checked_at = :now,"
            + " unreachable_since = NULL, last_error = NULL" + WHERE_READ;
    private static final String READ_FAILED = "UPDATE service_upstreams SET checked_at = :now,"
            + " unreachable_since = COALESCE(unreachable_since, :now), last_error = :last_error" + WHERE_READ;

    private final Database database;

    public UpstreamStore(Database database) {
        this.database = database;
    }

    /** Sets an existing service's upstream, due at once; a changed URL starts without a tag. */
    public void put(String serviceId, String url, String component, Instant now) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(UPSERT)
                        .bind("service_id", serviceId)
                        .bind("url", url)
                        .bind("component", component)
                        .bind("next_poll_at", now.toEpochMilli())
                        .execute();
            }
        });
    }

    public void remove(String serviceId) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(DELETE).bind("service_id", serviceId).execute();
            }
        });
    }

    public Optional<Upstream> find(String serviceId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("service_id", serviceId)
                        .map((rs, ctx) -> upstream(rs))
                        .findOne();
            }
        });
    }

    /** Every upstream by service id, for listings. */
    public Map<String, Upstream> all() {
        return database.read(connection -> {
            Map<String, Upstream> all = new HashMap<>();
            try (Handle sql = Sql.on(connection)) {
                sql.createQuery(SELECT_ALL)
                        .map((rs, ctx) -> upstream(rs))
                        .forEach(upstream -> all.put(upstream.serviceId(), upstream));
            }
            return all;
        });
    }

    /**
     * Claims up to {@code limit} upstreams due at {@code now} for this node: each is moved to its
     * next poll time by a conditional update, which only one node's update matches.
     */
    public List<Upstream> claimDue(Instant now, Duration interval, int limit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Due> due = sql.createQuery(SELECT_DUE)
                        .bind("now", now.toEpochMilli())
                        .bind("limit", limit)
                        .map((rs, ctx) -> new Due(upstream(rs), rs.getLong("next_poll_at")))
                        .list();
                List<Upstream> claimed = new ArrayList<>();
                for (Due one : due) {
                    if (sql.createUpdate(CLAIM)
                                    .bind("next_poll_at", now.plus(interval).toEpochMilli())
                                    .bind("service_id", one.upstream().serviceId())
                                    .bind("due_at", one.nextPollAt())
                                    .execute()
                            == 1) {
                        claimed.add(one.upstream());
                    }
                }
                return claimed;
            }
        });
    }

    /** A due upstream with the poll time its claim must still find. */
    private record Due(Upstream upstream, long nextPollAt) {}

    /** Records a successful read's tag on the caller's transaction; false when the upstream was replaced meanwhile. */
    public boolean recordRead(Connection connection, Upstream read, Optional<String> etag, Instant now) {
        try (Handle sql = Sql.on(connection)) {
            return ofRead(sql.createUpdate(READ_OK).bind("etag", etag.orElse(null)), read, now);
        }
    }

    /** Records a failed read: the service keeps its status; unreachable since the first failure in a row. */
    public void recordFailure(Upstream read, String reason, Instant now) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                ofRead(sql.createUpdate(READ_FAILED).bind("last_error", reason), read, now);
            }
        });
    }

    /** Runs a read's outcome {@code update}; false when the upstream read is no longer there. */
    private static boolean ofRead(Update update, Upstream read, Instant now) {
        return update.bind("now", now.toEpochMilli())
                        .bind("service_id", read.serviceId())
                        .bind("url", read.url())
                        .execute()
                == 1;
    }

    private static Upstream upstream(ResultSet rs) throws SQLException {
        return new Upstream(
                rs.getString("service_id"),
                rs.getString("url"),
                rs.getString("component"),
                Optional.ofNullable(rs.getString("etag")),
                Rows.optionalInstant(rs, "checked_at"),
                Rows.optionalInstant(rs, "unreachable_since"),
                Optional.ofNullable(rs.getString("last_error")));
    }
}
