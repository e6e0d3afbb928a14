package dev.pulseledger.status.subscribers;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.LeasedClaims;
import dev.pulseledger.store.Sql;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

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
            + " WHERE s.kind = 'email' AND s.confirmed_after_notice < :notice_seq AND s.seq > :after"
            + " AND (s.all_services OR :all_services OR EXISTS (SELECT 1 FROM status_subscriber_services x"
            + " JOIN status_notice_services y ON y.service_id = x.service_id"
            + " WHERE x.subscriber_id = s.id AND y.notice_id = :notice_id)) ORDER BY s.seq LIMIT :limit";
    private static final String INSERT_MAIL = "INSERT INTO status_mails (id, subscriber_id, kind, notice_id, status,"
            + " next_attempt_at, created_at) VALUES (:id, :subscriber_id, 'notice', :notice_id, 'pending', :now, :now)";
    private static final String ADVANCE =
            "UPDATE status_notices SET fanout_after = :fanout_after, fanned_out = :fanned_out WHERE id = :id";

    @SuppressWarnings("InlineFormatString") // the SQL reads better whole, with its one dialect hole
    private static final String CLAIM = "UPDATE status_mails SET claim = :claim, attempts = attempts + 1,"
            + " next_attempt_at = :lease_until WHERE id IN (SELECT m.id FROM status_mails m"
            + " WHERE m.status = 'pending' AND m.next_attempt_at <= :now AND NOT EXISTS (SELECT 1 FROM status_mails e"
            + " WHERE e.subscriber_id = m.subscriber_id AND e.status = 'pending' AND e.seq < m.seq)"
            + " ORDER BY m.next_attempt_at, m.seq LIMIT :limit%s)";

    private static final String SELECT_CLAIMED = "SELECT m.id, m.subscriber_id, s.email, m.kind, m.attempts,"
            + " m.created_at, n.payload FROM status_mails m JOIN status_subscribers s ON s.id = m.subscriber_id"
            + " LEFT JOIN status_notices n ON n.id = m.notice_id WHERE m.claim = :claim ORDER BY m.seq";
    private static final String FINISH = "UPDATE status_mails SET status = :status, next_attempt_at = :retry_at,"
            + " claim = NULL, sent_at = :sent_at, last_error = :last_error WHERE id = :id AND claim = :claim";
    private static final String PRUNE_MAILS = "DELETE FROM status_mails WHERE seq IN (SELECT seq FROM status_mails"
            + " WHERE status <> 'pending' AND created_at < :cutoff ORDER BY seq LIMIT :limit)";
    private static final String PRUNE_NOTICES = "DELETE FROM status_notices WHERE seq IN (SELECT seq FROM"
            + " status_notices n WHERE n.fanned_out AND n.created_at < :cutoff AND NOT EXISTS (SELECT 1 FROM"
            + " status_mails m WHERE m.notice_id = n.id) ORDER BY seq LIMIT :limit)";
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
            try (Handle sql = Sql.on(connection)) {
                Optional<Unfanned> notice = sql.createQuery(selectUnfanned)
                        .map((rs, ctx) -> new Unfanned(
                                rs.getLong("seq"),
                                rs.getString("id"),
                                rs.getBoolean("all_services"),
                                rs.getLong("fanout_after")))
                        .findOne();
                return notice.isEmpty() ? -1 : fanOut(sql, notice.get(), now, limit);
            }
        });
    }

    /** The oldest notice not yet fanned out, and the last subscriber its batches have reached. */
    private record Unfanned(long seq, String id, boolean allServices, long after) {}

    /** A subscriber of the notice's audience, by its position. */
    private record Member(long seq, String id) {}

    private static int fanOut(Handle sql, Unfanned notice, Instant now, int limit) {
        List<Member> audience = sql.createQuery(SELECT_AUDIENCE)
                .bind("notice_seq", notice.seq())
                .bind("after", notice.after())
                .bind("all_services", notice.allServices())
                .bind("notice_id", notice.id())
                .bind("limit", limit)
                .map((rs, ctx) -> new Member(rs.getLong(1), rs.getString(2)))
                .list();
        if (!audience.isEmpty()) {
            PreparedBatch batch = sql.prepareBatch(INSERT_MAIL);
            for (Member member : audience) {
                batch.bind("id", Ids.statusMail())
                        .bind("subscriber_id", member.id())
                        .bind("notice_id", notice.id())
                        .bind("now", now.toEpochMilli())
                        .add();
            }
            batch.execute();
        }
        sql.createUpdate(ADVANCE)
                .bind(
                        "fanout_after",
                        audience.isEmpty() ? notice.after() : audience.getLast().seq())
                .bind("fanned_out", audience.size() < limit)
                .bind("id", notice.id())
                .execute();
        return audience.size();
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
            try (Handle sql = Sql.on(connection)) {
                if (mail.kind().equals("confirm")) {
                    return SubscriberStore.confirmToken(sql, mail.subscriberId(), now)
                            .map(MailLinks::confirmation);
                }
                return Optional.of(MailLinks.subscriber(
                        SubscriberStore.issueLink(sql, mail.subscriberId(), TokenPurpose.MANAGE, now),
                        SubscriberStore.issueLink(sql, mail.subscriberId(), TokenPurpose.UNSUBSCRIBE, now)));
            }
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
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(FINISH)
                        .bind("status", result.status)
                        .bind("retry_at", retryAt.map(Instant::toEpochMilli).orElse(null))
                        .bind("sent_at", result == Result.SENT ? Long.valueOf(now.toEpochMilli()) : null)
                        .bind("last_error", error.orElse(null))
                        .bind("id", mail.id())
                        .bind("claim", claim)
                        .execute();
            }
        });
    }

    /** Deletes finished mails and fanned-out notices older than {@code cutoff}, at most {@code limit} each. */
    int prune(Instant cutoff, int limit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                int deleted = 0;
                for (String prune : List.of(PRUNE_MAILS, PRUNE_NOTICES)) {
                    deleted += sql.createUpdate(prune)
                            .bind("cutoff", cutoff.toEpochMilli())
                            .bind("limit", limit)
                            .execute();
                }
                return deleted;
            }
        });
    }

    /** Mails waiting for a first or further attempt, on every node. */
    long pendingCount() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(COUNT_PENDING).mapTo(Long.class).one();
            }
        });
    }
}
