package dev.pulseledger.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Claims due rows under a lease and reads back what the claim took: the one shape of the outbox workers
 * (webhook deliveries, status mails), so that a node that dies mid-send leaves its rows to another node.
 */
public final class LeasedClaims {
    /** Reads one claimed row. */
    @FunctionalInterface
    public interface RowReader<T> {
        T read(ResultSet rs) throws SQLException;
    }

    private LeasedClaims() {}

    /**
     * Runs {@code claimSql} with (claim, lease end, now, limit), then, if it claimed anything,
     * {@code selectClaimedSql} with (claim), on the caller's connection and transaction.
     */
    public static <T> List<T> claim(
            Connection connection,
            String claimSql,
            String selectClaimedSql,
            String claim,
            Instant now,
            Instant leaseUntil,
            int limit,
            RowReader<T> reader)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(claimSql)) {
            ps.setString(1, claim);
            ps.setLong(2, leaseUntil.toEpochMilli());
            ps.setLong(3, now.toEpochMilli());
            ps.setInt(4, limit);
            if (ps.executeUpdate() == 0) {
                return List.of();
            }
        }
        List<T> claimed = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(selectClaimedSql)) {
            ps.setString(1, claim);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    claimed.add(reader.read(rs));
                }
            }
        }
        return claimed;
    }
}
