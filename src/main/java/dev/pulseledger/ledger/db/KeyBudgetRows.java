package dev.pulseledger.ledger.db;

import dev.pulseledger.keys.BudgetPeriod;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.ledger.core.BudgetNotice;
import dev.pulseledger.ledger.core.BudgetWindow;
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
 * Key budgets in their windows (CONTRACT §14), read by the ledger round with the keys' accounts locked and
 * by the readers: each budget with what its key used of the pool from its window's start on (spendings
 * counted at {@code key_used_at} less what was reverted of them, and holds still held), and the notices its
 * window has had. The indexes {@code spendings_key_use} and {@code reservations_key_held} (V271) serve the
 * sums, so a key without budgets costs one probe of {@code key_budgets}.
 */
public final class KeyBudgetRows {
    private static final String WINDOWS = """
            SELECT b.key_id, b.pool, b.period, b.tokens, w.column2 AS window_start,
                COALESCE((SELECT SUM(s.amount - s.reverted_amount) FROM spendings s
                    WHERE s.key_id = b.key_id AND s.pool = b.pool AND s.key_used_at >= w.column2), 0)
                + COALESCE((SELECT SUM(r.amount) FROM reservations r
                    WHERE r.key_id = b.key_id AND r.pool = b.pool AND r.status = 'held'
                        AND r.created_at >= w.column2), 0) AS used,
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

    /** The budgets of many keys (PostgreSQL), sent in the round trip that locks their accounts. */
    static final String OF_KEYS_POSTGRES = WINDOWS.formatted("b.key_id = ANY (:key_ids)");

    private static final String INSERT_NOTICE = "INSERT INTO key_budget_notices"
            + " (key_id, pool, period, window_start, level, created_at) VALUES (?, ?, ?, ?, ?, ?)";

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

    /** Writes the windows' notices in the round's transaction: each level once per window (its key). */
    static void insertNotices(Connection connection, List<BudgetNotice> notices, Instant at) throws SQLException {
        if (notices.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_NOTICE)) {
            for (BudgetNotice notice : notices) {
                ps.setString(1, notice.keyId());
                ps.setString(2, notice.pool());
                ps.setString(3, notice.period());
                ps.setLong(4, notice.windowStart().toEpochMilli());
                ps.setString(5, notice.level().wire());
                ps.setLong(6, at.toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }
}
