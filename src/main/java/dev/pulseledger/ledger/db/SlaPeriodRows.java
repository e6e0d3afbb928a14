package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.Revocation;
import dev.pulseledger.ledger.core.SlaPeriod;
import dev.pulseledger.store.NamedSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The SLA rows of a ledger round: which of its periods were measured and the new ones ({@code sla_periods},
 * V261), which of its grants were revoked and the new revocations ({@code grant_revocations}, V262).
 */
final class SlaPeriodRows {
    private static final NamedSql SELECT =
            NamedSql.parse("SELECT 1 FROM sla_periods WHERE account_id = :account_id AND period_start = :period_start");
    private static final NamedSql INSERT = NamedSql.parse("INSERT INTO sla_periods (account_id, period_start,"
            + " period_end, uptime, period_allowance, credit_percent, amount, grant_id, incidents, measured_at)"
            + " VALUES (:account_id, :period_start, :period_end, :uptime, :period_allowance, :credit_percent,"
            + " :amount, :grant_id, :incidents, :measured_at)");

    private static final NamedSql SELECT_REVOKED =
            NamedSql.parse("SELECT 1 FROM grant_revocations WHERE grant_id = :grant_id");
    private static final NamedSql INSERT_REVOCATION =
            NamedSql.parse("INSERT INTO grant_revocations (grant_id, account_id, amount, revoked_at)"
                    + " VALUES (:grant_id, :account_id, :amount, :revoked_at)");

    private SlaPeriodRows() {}

    /** Those of {@code grantIds} that were revoked already (V262). */
    static Set<String> revoked(Connection connection, Set<String> grantIds) throws SQLException {
        Set<String> revoked = new HashSet<>();
        if (grantIds.isEmpty()) {
            return revoked; // every round asks, almost always of no grant: no statement to prepare then
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_REVOKED.sql())) {
            for (String grantId : grantIds) {
                SELECT_REVOKED.setString(ps, "grant_id", grantId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        revoked.add(grantId);
                    }
                }
            }
        }
        return revoked;
    }

    /** Inserts the round's revocations; the primary key refuses a second for a grant. */
    static void insertRevocations(Connection connection, List<Revocation> revocations) throws SQLException {
        if (revocations.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_REVOCATION.sql())) {
            for (Revocation revocation : revocations) {
                INSERT_REVOCATION.setString(ps, "grant_id", revocation.grantId());
                INSERT_REVOCATION.setString(ps, "account_id", revocation.accountId());
                INSERT_REVOCATION.setLong(ps, "amount", revocation.amount());
                INSERT_REVOCATION.setLong(ps, "revoked_at", revocation.at().toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Those of {@code keys} that were measured already. */
    static Set<SlaPeriod.Key> measured(Connection connection, Set<SlaPeriod.Key> keys) throws SQLException {
        Set<SlaPeriod.Key> measured = new HashSet<>();
        if (keys.isEmpty()) {
            return measured;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT.sql())) {
            for (SlaPeriod.Key key : keys) {
                SELECT.setString(ps, "account_id", key.accountId());
                SELECT.setLong(ps, "period_start", key.periodStart().toEpochMilli());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        measured.add(key);
                    }
                }
            }
        }
        return measured;
    }

    /** Inserts the round's measured periods; the primary key refuses a second row for a period. */
    static void insert(Connection connection, List<SlaPeriod> periods) throws SQLException {
        if (periods.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT.sql())) {
            for (SlaPeriod period : periods) {
                INSERT.setString(ps, "account_id", period.accountId());
                INSERT.setLong(ps, "period_start", period.period().start().toEpochMilli());
                INSERT.setLong(ps, "period_end", period.period().end().toEpochMilli());
                INSERT.setDouble(ps, "uptime", period.uptime());
                INSERT.setLong(ps, "period_allowance", period.periodAllowance());
                INSERT.setLong(ps, "credit_percent", period.creditPercent());
                INSERT.setLong(ps, "amount", period.amount());
                INSERT.setString(ps, "grant_id", period.grantId().orElse(null));
                INSERT.setString(ps, "incidents", String.join(",", period.incidentIds()));
                INSERT.setLong(ps, "measured_at", period.measuredAt().toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
