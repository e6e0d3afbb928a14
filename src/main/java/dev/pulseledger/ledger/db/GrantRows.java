package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.GrantKind;
import dev.pulseledger.store.Rows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The columns of a grant (table alias {@code g}) and the grant they read back. */
final class GrantRows {
    static final String COLUMNS =
            "g.id AS grant_id, g.account_id AS grant_account_id, g.pool AS grant_pool, g.kind AS grant_kind,"
                    + " g.amount AS grant_amount, g.remaining AS grant_remaining, g.expired AS grant_expired,"
                    + " g.expires_at AS grant_expires_at, g.period_start AS grant_period_start,"
                    + " g.created_at AS grant_created_at";

    private GrantRows() {}

    /** The grant of the row, empty when an outer join found none. */
    static Optional<Grant> grant(ResultSet rs) throws SQLException {
        String id = rs.getString("grant_id");
        if (id == null) {
            return Optional.empty();
        }
        return Optional.of(new Grant(
                id,
                rs.getString("grant_account_id"),
                rs.getString("grant_pool"),
                GrantKind.fromWire(rs.getString("grant_kind")),
                rs.getLong("grant_amount"),
                rs.getLong("grant_remaining"),
                rs.getLong("grant_expired"),
                Rows.optionalInstant(rs, "grant_expires_at"),
                Rows.optionalInstant(rs, "grant_period_start"),
                Rows.instant(rs, "grant_created_at")));
    }
}
