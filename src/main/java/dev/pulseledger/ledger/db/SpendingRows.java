package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.KeyCharge;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.store.Rows;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** The columns of a spending and the spending they read back, for the store and for readers. */
public final class SpendingRows {
    public static final String COLUMNS =
            "seq, id, account_id, pool, amount, status, reverted_amount, created_at, reverted_at, key_id, key_used_at";

    private SpendingRows() {}

    public static Spending spending(ResultSet rs) throws SQLException {
        String keyId = rs.getString("key_id");
        return new Spending(
                rs.getString("id"),
                rs.getString("account_id"),
                rs.getString("pool"),
                rs.getLong("amount"),
                rs.getLong("reverted_amount"),
                Rows.instant(rs, "created_at"),
                Rows.optionalInstant(rs, "reverted_at"),
                keyId == null ? Optional.empty() : Optional.of(new KeyCharge(keyId, Rows.instant(rs, "key_used_at"))));
    }
}
