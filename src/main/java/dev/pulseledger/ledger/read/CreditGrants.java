package dev.pulseledger.ledger.read;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * An account's credit grants as the console lists them (CONTRACT §13): operators' credits and SLA credits,
 * newest first, each with what is left, the SLA period it pays for, and when it was revoked.
 */
public final class CreditGrants {
    /** Grants one account's page lists. */
    public static final int MAX_LISTED = 50;

    private static final String SELECT = "SELECT g.id, g.pool, g.amount, g.remaining, g.expires_at, g.created_at,"
            + " s.period_start, s.period_end, s.uptime, s.credit_percent, r.revoked_at FROM grants g"
            + " LEFT JOIN sla_periods s ON s.grant_id = g.id"
            + " LEFT JOIN grant_revocations r ON r.grant_id = g.id"
            + " WHERE g.account_id = :account_id AND g.kind = 'credit'"
            + " ORDER BY g.created_at DESC, g.id DESC LIMIT :limit";

    private final Database database;

    public CreditGrants(Database database) {
        this.database = database;
    }

    /** The period an SLA credit pays for, its measured uptime and the tier's percent. */
    public record SlaPeriod(Instant start, Instant end, double uptime, int creditPercent) {}

    /** One credit grant; {@code sla} is present for an SLA credit, {@code revokedAt} once it was revoked. */
    public record CreditGrant(
            String grantId,
            String pool,
            long amount,
            long remaining,
            Optional<Instant> expiresAt,
            Instant createdAt,
            Optional<SlaPeriod> sla,
            Optional<Instant> revokedAt) {}

    /** The account's credit grants, newest first, at most {@link #MAX_LISTED}. */
    public List<CreditGrant> list(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT)
                        .bind("account_id", accountId)
                        .bind("limit", MAX_LISTED)
                        .map((rs, ctx) -> grant(rs))
                        .list();
            }
        });
    }

    private static CreditGrant grant(ResultSet rs) throws SQLException {
        Optional<Instant> periodStart = Rows.optionalInstant(rs, "period_start");
        return new CreditGrant(
                rs.getString("id"),
                rs.getString("pool"),
                rs.getLong("amount"),
                rs.getLong("remaining"),
                Rows.optionalInstant(rs, "expires_at"),
                Rows.instant(rs, "created_at"),
                periodStart.isEmpty()
                        ? Optional.empty()
                        : Optional.of(new SlaPeriod(
                                periodStart.get(),
                                Rows.instant(rs, "period_end"),
                                rs.getDouble("uptime"),
                                rs.getInt("credit_percent"))),
                Rows.optionalInstant(rs, "revoked_at"));
    }
}
