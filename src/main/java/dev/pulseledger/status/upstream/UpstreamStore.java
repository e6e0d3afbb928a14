package dev.pulseledger.status.upstream;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * SQL for services' upstreams. A poll is claimed by moving the row's next poll time with a
 * conditional update, so each due upstream is read by one node, whichever claims it first.
 */
public final class UpstreamStore {
    private static final String COLUMNS = "service_id, url, component, etag, checked_at, unreachable_since, last_error";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM service_upstreams WHERE service_id = ?";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM service_upstreams";
    private static final String SELECT_DUE = "SELECT " + COLUMNS + ", next_poll_at FROM service_upstreams"
            + " WHERE next_poll_at <= ? ORDER BY next_poll_at LIMIT ?";
    private static final String CLAIM =
            "UPDATE service_upstreams SET next_poll_at = ? WHERE service_id = ? AND next_poll_at = ?";
    private static final String UPSERT = "INSERT INTO service_upstreams (service_id, url, component, next_poll_at)"
            + " VALUES (?, ?, ?, ?) ON CONFLICT (service_id) DO UPDATE SET url = excluded.url,"
            + " component = excluded.component, etag = NULL, next_poll_at = excluded.next_poll_at";
    private static final String DELETE = "DELETE FROM service_upstreams WHERE service_id = ?";
    private static final String READ_OK = "UPDATE service_upstreams SET etag = ?, checked_at = ?,"
            + " unreachable_since = NULL, last_error = NULL WHERE service_id = ? AND url = ?";
    private static final String READ_FAILED = "UPDATE service_upstreams SET checked_at = ?,"
            + " unreachable_since = COALESCE(unreachable_since, ?), last_error = ? WHERE service_id = ? AND url = ?";

    private final Database database;

    public UpstreamStore(Database database) {
        this.database = database;
    }

    /** Sets an existing service's upstream, due at once; a changed URL starts without a tag. */
    public void put(String serviceId, String url, String component, Instant now) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(UPSERT)) {
                ps.setString(1, serviceId);
                ps.setString(2, url);
                ps.setString(3, component);
                ps.setLong(4, now.toEpochMilli());
                ps.executeUpdate();
            }
        });
    }

    public void remove(String serviceId) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, serviceId);
                ps.executeUpdate();
            }
        });
    }

    public Optional<Upstream> find(String serviceId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, serviceId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(upstream(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Every upstream by service id, for listings. */
    public Map<String, Upstream> all() {
        return database.read(connection -> {
            Map<String, Upstream> all = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ALL);
                    ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Upstream upstream = upstream(rs);
                    all.put(upstream.serviceId(), upstream);
                }
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
            List<Upstream> due = new ArrayList<>();
            List<Long> dueAt = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_DUE)) {
                ps.setLong(1, now.toEpochMilli());
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        due.add(upstream(rs));
                        dueAt.add(rs.getLong("next_poll_at"));
                    }
                }
            }
            List<Upstream> claimed = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(CLAIM)) {
                for (int i = 0; i < due.size(); i++) {
                    ps.setLong(1, now.plus(interval).toEpochMilli());
                    ps.setString(2, due.get(i).serviceId());
                    ps.setLong(3, dueAt.get(i));
                    if (ps.executeUpdate() == 1) {
                        claimed.add(due.get(i));
                    }
                }
            }
            return claimed;
        });
    }

    /** Records a successful read's tag on the caller's transaction; false when the upstream was replaced meanwhile. */
    public boolean recordRead(Connection connection, Upstream read, Optional<String> etag, Instant now)
            throws SQLException {
        return update(connection, READ_OK, read, 2, ps -> {
            ps.setString(1, etag.orElse(null));
            ps.setLong(2, now.toEpochMilli());
        });
    }

    /** Records a failed read: the service keeps its status; unreachable since the first failure in a row. */
    public void recordFailure(Upstream read, String reason, Instant now) {
        database.runInTransaction(connection -> update(connection, READ_FAILED, read, 3, ps -> {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
            ps.setString(3, reason);
        }));
    }

    /** The first {@code count} parameters of {@code sql}; the two after them are the service id and URL read. */
    @FunctionalInterface
    private interface Parameters {
        void set(PreparedStatement ps) throws SQLException;
    }

    private static boolean update(Connection connection, String sql, Upstream read, int count, Parameters first)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            first.set(ps);
            ps.setString(count + 1, read.serviceId());
            ps.setString(count + 2, read.url());
            return ps.executeUpdate() == 1;
        }
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
