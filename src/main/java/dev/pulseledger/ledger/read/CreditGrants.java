package dev.pulseledger.ledger.read;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

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
            + " WHERE g.account_id = ? AND g.kind = 'credit' ORDER BY g.created_at DESC, g.id DESC LIMIT ?";

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
            try (PreparedStatement ps = connection.prepareStatement(SELECT)) {
                ps.setString(1, accountId);
                ps.setInt(2, MAX_LISTED);
                List<CreditGrant> grants = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        Optional<Instant> periodStart = Rows.optionalInstant(rs, "period_start");
                        grants.add(new CreditGrant(
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
                                Rows.optionalInstant(rs, "revoked_at")));
                    }
                }
                return grants;
            }
        });
    }
}
