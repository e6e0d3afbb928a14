package dev.pulseledger.accounts;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.Optional;

/**
 * Appends ledger entries in batches on a caller's transaction, so that every balance change and its
 * entry commit together.
 */
public final class LedgerWriter implements AutoCloseable {
    private static final String INSERT =
            "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, reason,"
                    + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final PreparedStatement statement;
    private int pending;

    public LedgerWriter(Connection connection) throws SQLException {
        this.statement = connection.prepareStatement(INSERT);
    }

    public void add(
            String accountId,
            String kind,
            long signedAmount,
            long balanceAfter,
            Optional<String> spendingId,
            Optional<String> reason,
            Instant at)
            throws SQLException {
        statement.setString(1, accountId);
        statement.setString(2, kind);
        statement.setLong(3, signedAmount);
        statement.setLong(4, balanceAfter);
        setOptionalString(5, spendingId);
        setOptionalString(6, reason);
        statement.setLong(7, at.toEpochMilli());
        statement.addBatch();
        pending++;
    }

    private void setOptionalString(int index, Optional<String> value) throws SQLException {
        if (value.isPresent()) {
            statement.setString(index, value.get());
        } else {
            statement.setNull(index, Types.VARCHAR);
        }
    }

    /** Writes everything added so far. */
    public void flush() throws SQLException {
        if (pending > 0) {
            statement.executeBatch();
            pending = 0;
        }
    }

    @Override
    public void close() throws SQLException {
        statement.close();
    }
}
