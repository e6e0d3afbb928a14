package dev.pulseledger.keys;

import dev.pulseledger.store.Dialect;
import java.time.Instant;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * Fills the current window of each of a key's budgets with what the key already used of the pool in it
 * (spent and not reverted, and held), so that a budget set mid-window counts the window's earlier use; the
 * ledger keeps the window from then on. Runs in the transaction that sets the budgets, with the key's
 * account locked, so no ledger round of that account counts in between.
 */
final class KeyBudgetSeed {
    /** With the dialect's lock clause: PostgreSQL locks the account row; SQLite's write lock covers every row. */
    private static final String LOCK_ACCOUNT =
            "SELECT id FROM accounts WHERE id = (SELECT account_id FROM api_keys WHERE id = :key_id)";

    // WHERE true: SQLite reads an ON CONFLICT after INSERT … SELECT only when the SELECT has a WHERE.
    private static final String FILL = "INSERT INTO key_budget_use (key_id, pool, period, window_start, used)"
            + " SELECT k.id, :pool, :period, :window_start,"
            + " COALESCE((SELECT SUM(s.amount - s.reverted_amount) FROM spendings s WHERE s.account_id = k.account_id"
            + " AND s.key_id = k.id AND s.pool = :pool AND s.key_used_at >= :window_start), 0)"
            + " + COALESCE((SELECT SUM(r.amount) FROM reservations r WHERE r.account_id = k.account_id"
            + " AND r.key_id = k.id AND r.pool = :pool AND r.status = 'held' AND r.created_at >= :window_start), 0)"
            + " FROM api_keys k WHERE k.id = :key_id"
            + " ON CONFLICT (key_id, pool, period, window_start) DO UPDATE SET used = excluded.used";

    private KeyBudgetSeed() {}

    /** Fills the windows of {@code budgets} that hold {@code now}. */
    static void fill(Handle sql, Dialect dialect, String keyId, List<KeyBudget> budgets, Instant now) {
        if (budgets.isEmpty()) {
            return;
        }
        sql.createQuery(LOCK_ACCOUNT + dialect.lockClause())
                .bind("key_id", keyId)
                .mapTo(String.class)
                .list();
        PreparedBatch batch = sql.prepareBatch(FILL);
        for (KeyBudget budget : budgets) {
            batch.bind("pool", budget.pool())
                    .bind("period", budget.period().wire())
                    .bind("window_start", budget.period().windowStart(now).toEpochMilli())
                    .bind("key_id", keyId)
                    .add();
        }
        batch.execute();
    }
}
