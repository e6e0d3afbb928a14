package dev.pulseledger.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;

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
     * Runs {@code claimSql} with {@code :claim}, {@code :lease_until}, {@code :now} and {@code :limit}, then, if
     * it claimed anything, {@code selectClaimedSql} with {@code :claim}, on the caller's connection and
     * transaction.
     */
    public static <T> List<T> claim(
            Connection connection,
            String claimSql,
            String selectClaimedSql,
            String claim,
            Instant now,
            Instant leaseUntil,
            int limit,
            RowReader<T> reader) {
        try (Handle sql = Sql.on(connection)) {
            int claimed = sql.createUpdate(claimSql)
                    .bind("claim", claim)
                    .bind("lease_until", leaseUntil.toEpochMilli())
                    .bind("now", now.toEpochMilli())
                    .bind("limit", limit)
                    .execute();
            if (claimed == 0) {
                return List.of();
            }
            return sql.createQuery(selectClaimedSql)
                    .bind("claim", claim)
                    .map((rs, ctx) -> reader.read(rs))
                    .list();
        }
    }
}
