package dev.pulseledger.ledger.db;

import dev.pulseledger.keys.BudgetPeriod;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.ledger.core.BudgetNotice;
import dev.pulseledger.ledger.core.BudgetWindow;
import dev.pulseledger.store.NamedSql;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Key budgets in their windows (CONTRACT §14), read by the ledger round with the accounts locked and by the
 * readers: each budget of a key with what its key used of the pool in the current window, kept per window in
 * {@code key_budget_use} (written by the round that counts in it, under the same lock; a window without a
 * row has used nothing), and the notices its window has had. Reading a window is a key lookup, whatever the
 * key has done in it; a key without budgets costs a probe of {@code key_budgets}.
 */
public final class KeyBudgetRows {
    private static final String WINDOWS = """
            SELECT b.key_id, b.pool, b.period, b.tokens, w.column2 AS window_start,
                COALESCE((SELECT u.used FROM key_budget_use u WHERE u.key_id = b.key_id AND u.pool = b.pool
                    AND u.period = b.period AND u.window_start = w.column2), 0) AS used,
                EXISTS (SELECT 1 FROM key_budget_notices n WHERE n.key_id = b.key_id AND n.pool = b.pool
                    AND n.period = b.period AND n.window_start = w.column2 AND n.level = 'warning') AS warned,
                EXISTS (SELECT 1 FROM key_budget_notices n WHERE n.key_id = b.key_id AND n.pool = b.pool
                    AND n.period = b.period AND n.window_start = w.column2 AND n.level = 'exhausted') AS exhausted
            FROM key_budgets b JOIN (VALUES ('day', :day), ('week', :week), ('month', :month)) w
                ON w.column1 = b.period
            WHERE %s
            ORDER BY b.key_id, b.position""";

    /** One key's budgets in their windows. */
    static final NamedSql OF_KEY = NamedSql.parse(WINDOWS.formatted("b.key_id = :key_id"));

    /** The budgets of the keys of many accounts (SQLite), the accounts' ids a JSON array. */
    static final NamedSql OF_ACCOUNTS_SQLITE = NamedSql.parse(WINDOWS.formatted(
            "b.key_id IN (SELECT k.id FROM api_keys k WHERE k.account_id IN (SELECT value FROM json_each(:ids)))"));

    /** The budgets of the keys of many accounts (PostgreSQL), sent in the round trip that locks the accounts. */
    static final String OF_ACCOUNTS_POSTGRES =
            WINDOWS.formatted("b.key_id IN (SELECT k.id FROM api_keys k WHERE k.account_id = ANY (:ids))");

    private static final NamedSql INSERT_NOTICE = NamedSql.parse("INSERT INTO key_budget_notices"
            + " (key_id, pool, period, window_start, level, created_at)"
            + " VALUES (:key_id, :pool, :period, :window_start, :level, :created_at)");

    /** A window's use as the round leaves it: the round holds the key's account, so the value is final. */
    private static final NamedSql SAVE_USE =
            NamedSql.parse("INSERT INTO key_budget_use (key_id, pool, period, window_start, used)"
                    + " VALUES (:key_id, :pool, :period, :window_start, :used)"
                    + " ON CONFLICT (key_id, pool, period, window_start) DO UPDATE SET used = excluded.used");

    private KeyBudgetRows() {}

    /** Sets the windows' starts, those that hold {@code now}. */
    static void bindWindows(NamedSql sql, PreparedStatement ps, Instant now) throws SQLException {
        sql.setLong(ps, "day", BudgetPeriod.DAY.windowStart(now).toEpochMilli());
        sql.setLong(ps, "week", BudgetPeriod.WEEK.windowStart(now).toEpochMilli());
        sql.setLong(ps, "month", BudgetPeriod.MONTH.windowStart(now).toEpochMilli());
    }

    /** Reads rows of the windows statement into {@code windows}, by key id, in each key's budget order; closes {@code rs}. */
    static void read(ResultSet rs, Map<String, List<BudgetWindow>> windows) throws SQLException {
        try (rs) {
            while (rs.next()) {
                BudgetPeriod period =
                        BudgetPeriod.fromWire(rs.getString("period")).orElseThrow();
                Instant start = Instant.ofEpochMilli(rs.getLong("window_start"));
                BudgetWindow window = new BudgetWindow(
                        rs.getString("key_id"),
                        new KeyBudget(rs.getString("pool"), period, rs.getLong("tokens")),
                        start,
                        period.windowEnd(start),
                        rs.getLong("used"),
                        rs.getBoolean("warned"),
                        rs.getBoolean("exhausted"));
                windows.computeIfAbsent(window.keyId(), id -> new ArrayList<>()).add(window);
            }
        }
    }

    /** One key's budgets in the windows that hold {@code now}, in the key's order; empty when it has none. */
    public static List<BudgetWindow> windows(Connection connection, String keyId, Instant now) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(OF_KEY.sql())) {
            bindKey(ps, keyId, now);
            Map<String, List<BudgetWindow>> windows = new HashMap<>();
            read(ps.executeQuery(), windows);
            return windows.getOrDefault(keyId, List.of());
        }
    }

    /** Binds {@link #OF_KEY} for one key at {@code now}. */
    static void bindKey(PreparedStatement ps, String keyId, Instant now) throws SQLException {
        OF_KEY.setString(ps, "key_id", keyId);
        bindWindows(OF_KEY, ps, now);
    }

    /** Keeps the use of each window the round counted in, in the round's transaction. */
    static void saveUse(Connection connection, List<BudgetWindow> windows) throws SQLException {
        if (windows.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(SAVE_USE.sql())) {
            for (BudgetWindow window : windows) {
                SAVE_USE.setString(ps, "key_id", window.keyId());
                SAVE_USE.setString(ps, "pool", window.budget().pool());
                SAVE_USE.setString(ps, "period", window.budget().period().wire());
                SAVE_USE.setLong(ps, "window_start", window.start().toEpochMilli());
                SAVE_USE.setLong(ps, "used", window.used());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /** Writes the windows' notices in the round's transaction: each level once per window (its key). */
    static void insertNotices(Connection connection, List<BudgetNotice> notices, Instant at) throws SQLException {
        if (notices.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_NOTICE.sql())) {
            for (BudgetNotice notice : notices) {
                INSERT_NOTICE.setString(ps, "key_id", notice.keyId());
                INSERT_NOTICE.setString(ps, "pool", notice.pool());
                INSERT_NOTICE.setString(ps, "period", notice.period());
                INSERT_NOTICE.setLong(ps, "window_start", notice.windowStart().toEpochMilli());
                INSERT_NOTICE.setString(ps, "level", notice.level().wire());
                INSERT_NOTICE.setLong(ps, "created_at", at.toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
