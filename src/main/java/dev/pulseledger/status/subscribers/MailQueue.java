package dev.pulseledger.status.subscribers;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.LeasedClaims;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * SQL for the mail queue: fans each notice out to the email subscribers whose services it touches
 * (oldest notice first, in bounded batches), and claims due mails for one node at a time, never a
 * subscriber's later mail before its earlier one has gone (so each subscriber reads notices in order).
 */
final class MailQueue {
    private static final String SELECT_UNFANNED = "SELECT seq, id, all_services, fanout_after"
            + " FROM status_notices WHERE NOT fanned_out ORDER BY seq LIMIT 1";
    // Confirmed before the notice by commit order (see SubscriberStore.confirmedAfter), not by two nodes' clocks:
    // so the audience is whole once the notice commits, and paging through it by subscriber seq misses no one.
    private static final String SELECT_AUDIENCE = "SELECT s.seq, s.id FROM status_subscribers s"
            + " WHERE s.kind = 'email' AND s.confirmed_after_notice < ? AND s.seq > ?"
            + " AND (s.all_services OR ? OR EXISTS (SELECT 1 FROM status_subscriber_services x"
            + " JOIN status_notice_services y ON y.service_id = x.service_id"
            + " WHERE x.subscriber_id = s.id AND y.notice_id = ?)) ORDER BY s.seq LIMIT ?";
    private static final String INSERT_MAIL = "INSERT INTO status_mails (id, subscriber_id, kind, notice_id, status,"
            + " next_attempt_at, created_at) VALUES (?, ?, 'notice', ?, 'pending', ?, ?)";
    private static final String ADVANCE = "UPDATE status_notices SET fanout_after = ?, fanned_out = ? WHERE id = ?";

    @SuppressWarnings("InlineFormatString") // the SQL reads better whole, with its one dialect hole
    private static final String CLAIM = "UPDATE status_mails SET claim = ?, attempts = attempts + 1,"
            + " next_attempt_at = ? WHERE id IN (SELECT m.id FROM status_mails m WHERE m.status = 'pending'"
            + " AND m.next_attempt_at <= ? AND NOT EXISTS (SELECT 1 FROM status_mails e"
            + " WHERE e.subscriber_id = m.subscriber_id AND e.status = 'pending' AND e.seq < m.seq)"
            + " ORDER BY m.next_attempt_at, m.seq LIMIT ?%s)";

    private static final String SELECT_CLAIMED = "SELECT m.id, m.subscriber_id, s.email, m.kind, m.attempts,"
            + " m.created_at, n.payload FROM status_mails m JOIN status_subscribers s ON s.id = m.subscriber_id"
            + " LEFT JOIN status_notices n ON n.id = m.notice_id WHERE m.claim = ? ORDER BY m.seq";
    private static final String FINISH = "UPDATE status_mails SET status = ?, next_attempt_at = ?, claim = NULL,"
            + " sent_at = ?, last_error = ? WHERE id = ? AND claim = ?";
    private static final String PRUNE_MAILS = "DELETE FROM status_mails WHERE seq IN (SELECT seq FROM status_mails"
            + " WHERE status <> 'pending' AND created_at < ? ORDER BY seq LIMIT ?)";
    private static final String PRUNE_NOTICES = "DELETE FROM status_notices WHERE seq IN (SELECT seq FROM"
            + " status_notices n WHERE n.fanned_out AND n.created_at < ? AND NOT EXISTS (SELECT 1 FROM"
            + " status_mails m WHERE m.notice_id = n.id) ORDER BY seq LIMIT ?)";
    private static final String COUNT_PENDING = "SELECT COUNT(*) FROM status_mails WHERE status = 'pending'";

    /** How a claimed mail ended this time. */
    enum Result {
        SENT("sent"),
        RETRY("pending"),
        FAILED("failed");

        final String status;

        Result(String status) {
            this.status = status;
        }
    }

    private final Database database;
    private final String claimSql;
    private final String selectUnfanned;

    MailQueue(Database database) {
        this.database = database;
        boolean postgres = database.dialect() == Dialect.POSTGRESQL;
        this.claimSql = CLAIM.formatted(postgres ? " FOR UPDATE SKIP LOCKED" : "");
        // Plain FOR UPDATE: a second node waits for the batch in progress, so notices go out in order.
        this.selectUnfanned = SELECT_UNFANNED + database.dialect().lockClause();
    }

    /**
     * Queues the oldest unfanned notice's mails for up to {@code limit} more subscribers; returns how
     * many were queued (0 when no notice waits). A notice is done once a batch comes back short.
     */
    int fanOut(Instant now, int limit) {
        return database.inTransaction(connection -> {
            long noticeSeq;
            String noticeId;
            boolean allServices;
            long after;
            try (PreparedStatement ps = connection.prepareStatement(selectUnfanned);
                    ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return -1;
                }
                noticeSeq = rs.getLong("seq");
                noticeId = rs.getString("id");
                allServices = rs.getBoolean("all_services");
                after = rs.getLong("fanout_after");
            }
            List<String> audience = new ArrayList<>();
            long last = after;
            try (PreparedStatement ps = connection.prepareStatement(SELECT_AUDIENCE)) {
                ps.setLong(1, noticeSeq);
                ps.setLong(2, after);
                ps.setBoolean(3, allServices);
                ps.setString(4, noticeId);
                ps.setInt(5, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        last = rs.getLong(1);
                        audience.add(rs.getString(2));
                    }
                }
            }
            if (!audience.isEmpty()) {
                try (PreparedStatement ps = connection.prepareStatement(INSERT_MAIL)) {
                    for (String subscriberId : audience) {
                        ps.setString(1, Ids.statusMail());
                        ps.setString(2, subscriberId);
                        ps.setString(3, noticeId);
                        ps.setLong(4, now.toEpochMilli());
                        ps.setLong(5, now.toEpochMilli());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(ADVANCE)) {
                ps.setLong(1, last);
                ps.setBoolean(2, audience.size() < limit);
                ps.setString(3, noticeId);
                ps.executeUpdate();
            }
            return audience.size();
        });
    }

    /**
     * Claims up to {@code limit} mails due at {@code now} under {@code claim}, leased until {@code
     * leaseUntil}: if this node dies mid-send, another claims them once the lease ends.
     */
    List<ClaimedMail> claim(String claim, Instant now, Instant leaseUntil, int limit) {
        return database.inTransaction(connection -> LeasedClaims.claim(
                connection,
                claimSql,
                SELECT_CLAIMED,
                claim,
                now,
                leaseUntil,
                limit,
                rs -> new ClaimedMail(
                        rs.getString("id"),
                        rs.getString("subscriber_id"),
                        rs.getString("email"),
                        rs.getString("kind"),
                        rs.getInt("attempts"),
                        Instant.ofEpochMilli(rs.getLong("created_at")),
                        Optional.ofNullable(rs.getString("payload")))));
    }

    /** The links a claimed mail carries, made now (tokens stored hashed); empty when it is no longer wanted. */
    Optional<MailLinks> links(ClaimedMail mail, Instant now) {
        return database.inTransaction(connection -> {
            if (mail.kind().equals("confirm")) {
                return SubscriberStore.confirmToken(connection, mail.subscriberId(), now)
                        .map(MailLinks::confirmation);
            }
            return Optional.of(MailLinks.subscriber(
                    SubscriberStore.issueLink(connection, mail.subscriberId(), TokenPurpose.MANAGE, now),
                    SubscriberStore.issueLink(connection, mail.subscriberId(), TokenPurpose.UNSUBSCRIBE, now)));
        });
    }

    /** Records how the mail's attempt ended, if this claim still holds it. */
    void finish(
            ClaimedMail mail,
            String claim,
            Result result,
            Optional<Instant> retryAt,
            Optional<String> error,
            Instant now) {
        database.runInTransaction(connection -> finish(connection, mail, claim, result, retryAt, error, now));
    }

    private static void finish(
            Connection connection,
            ClaimedMail mail,
            String claim,
            Result result,
            Optional<Instant> retryAt,
            Optional<String> error,
            Instant now)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(FINISH)) {
            ps.setString(1, result.status);
            dev.pulseledger.store.Rows.setOptionalInstant(ps, 2, retryAt);
            dev.pulseledger.store.Rows.setOptionalInstant(
                    ps, 3, result == Result.SENT ? Optional.of(now) : Optional.empty());
            ps.setString(4, error.orElse(null));
            ps.setString(5, mail.id());
            ps.setString(6, claim);
            ps.executeUpdate();
        }
    }

    /** Deletes finished mails and fanned-out notices older than {@code cutoff}, at most {@code limit} each. */
    int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            int deleted = 0;
            for (String sql : List.of(PRUNE_MAILS, PRUNE_NOTICES)) {
                try (PreparedStatement ps = connection.prepareStatement(sql)) {
                    ps.setLong(1, cutoff.toEpochMilli());
                    ps.setInt(2, limit);
                    deleted += ps.executeUpdate();
                }
            }
            return deleted;
        });
    }

    /** Mails waiting for a first or further attempt, on every node. */
    long pendingCount() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(COUNT_PENDING);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }
}
