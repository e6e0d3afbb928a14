package dev.pulseledger.keys;

import dev.pulseledger.store.Dialect;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * Fills the current window of each of a key's budgets with what the key already used of the pool in it
 * (spent and not reverted, and held), so that a budget set mid-window counts the window's earlier use; the
 * ledger keeps the window from then on. Runs in the transaction that sets the budgets, with the key's
 * account locked, so no ledger round of that account counts in between.
 */
final class KeyBudgetSeed {
    /** With the dialect's lock clause: PostgreSQL locks the account row; SQLite's write lock covers every row. */
    private static final String LOCK_ACCOUNT =
            "SELECT id FROM accounts WHERE id = (SELECT account_id FROM api_keys WHERE id = ?)";

    // WHERE true: SQLite reads an ON CONFLICT after INSERT … SELECT only when the SELECT has a WHERE.
    private static final String FILL = "INSERT INTO key_budget_use (key_id, pool, period, window_start, used)"
            + " SELECT k.id, ?, ?, ?,"
            + " COALESCE((SELECT SUM(s.amount - s.reverted_amount) FROM spendings s"
            + " WHERE s.account_id = k.account_id AND s.key_id = k.id AND s.pool = ? AND s.key_used_at >= ?), 0)"
            + " + COALESCE((SELECT SUM(r.amount) FROM reservations r WHERE r.account_id = k.account_id"
            + " AND r.key_id = k.id AND r.pool = ? AND r.status = 'held' AND r.created_at >= ?), 0)"
            + " FROM api_keys k WHERE k.id = ?"
            + " ON CONFLICT (key_id, pool, period, window_start) DO UPDATE SET used = excluded.used";

    private KeyBudgetSeed() {}

    /** Fills the windows of {@code budgets} that hold {@code now}. */
    static void fill(Connection connection, Dialect dialect, String keyId, List<KeyBudget> budgets, Instant now)
            throws SQLException {
        if (budgets.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(LOCK_ACCOUNT + dialect.lockClause())) {
            ps.setString(1, keyId);
            ps.executeQuery().close();
        }
        try (PreparedStatement ps = connection.prepareStatement(FILL)) {
            for (KeyBudget budget : budgets) {
                long windowStart = budget.period().windowStart(now).toEpochMilli();
                ps.setString(1, budget.pool());
                ps.setString(2, budget.period().wire());
                ps.setLong(3, windowStart);
                ps.setString(4, budget.pool());
                ps.setLong(5, windowStart);
                ps.setString(6, budget.pool());
                ps.setLong(7, windowStart);
                ps.setString(8, keyId);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
