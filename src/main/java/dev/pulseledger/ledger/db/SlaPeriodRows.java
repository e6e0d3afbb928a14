package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.Revocation;
import dev.pulseledger.ledger.core.SlaPeriod;
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
    private static final String SELECT = "SELECT 1 FROM sla_periods WHERE account_id = ? AND period_start = ?";
    private static final String INSERT = "INSERT INTO sla_periods (account_id, period_start, period_end, uptime,"
            + " period_allowance, credit_percent, amount, grant_id, incidents, measured_at)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final String SELECT_REVOKED = "SELECT 1 FROM grant_revocations WHERE grant_id = ?";
    private static final String INSERT_REVOCATION =
            "INSERT INTO grant_revocations (grant_id, account_id, amount, revoked_at) VALUES (?, ?, ?, ?)";

    private SlaPeriodRows() {}

    /** Those of {@code grantIds} that were revoked already (V262). */
    static Set<String> revoked(Connection connection, Set<String> grantIds) throws SQLException {
        Set<String> revoked = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_REVOKED)) {
            for (String grantId : grantIds) {
                ps.setString(1, grantId);
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
        try (PreparedStatement ps = connection.prepareStatement(INSERT_REVOCATION)) {
            for (Revocation revocation : revocations) {
                ps.setString(1, revocation.grantId());
                ps.setString(2, revocation.accountId());
                ps.setLong(3, revocation.amount());
                ps.setLong(4, revocation.at().toEpochMilli());
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
        try (PreparedStatement ps = connection.prepareStatement(SELECT)) {
            for (SlaPeriod.Key key : keys) {
                ps.setString(1, key.accountId());
                ps.setLong(2, key.periodStart().toEpochMilli());
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
        try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
            for (SlaPeriod period : periods) {
                ps.setString(1, period.accountId());
                ps.setLong(2, period.period().start().toEpochMilli());
                ps.setLong(3, period.period().end().toEpochMilli());
                ps.setDouble(4, period.uptime());
                ps.setLong(5, period.periodAllowance());
                ps.setInt(6, period.creditPercent());
                ps.setLong(7, period.amount());
                ps.setString(8, period.grantId().orElse(null));
                ps.setString(9, String.join(",", period.incidentIds()));
                ps.setLong(10, period.measuredAt().toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
