package dev.pulseledger.console;

import dev.pulseledger.store.Database;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** SQL behind the dashboard: hourly spends, refusals and webhook failures, and the top spenders. */
final class DashboardQueries {
    private static final String HOURLY_SPENDS = "SELECT hour_start, SUM(tokens), SUM(refusals) FROM spend_activity"
            + " WHERE hour_start >= ? GROUP BY hour_start";
    private static final String TOP_ACCOUNTS = "SELECT s.account_id, a.name, SUM(s.tokens) AS spent,"
            + " SUM(s.spends) AS spends FROM spend_activity s JOIN accounts a ON a.id = s.account_id"
            + " WHERE s.hour_start >= ? GROUP BY s.account_id, a.name HAVING SUM(s.tokens) > 0"
            + " ORDER BY spent DESC, s.account_id LIMIT ?";
    private static final String HOURLY_WEBHOOK_FAILURES = "SELECT started_at / 3600000 * 3600000 AS hour_start,"
            + " COUNT(*) FROM webhook_attempts WHERE started_at >= ?"
            + " AND (status_code IS NULL OR status_code < 200 OR status_code > 299) GROUP BY started_at / 3600000";

    /** Tokens spent and spends refused in one hour, summed over every account and node. */
    record Hour(long tokens, long refusals) {}

    /** An account and what it spent in the window. */
    record TopAccount(String accountId, String name, long tokens, long spends) {}

    private final Database database;

    DashboardQueries(Database database) {
        this.database = database;
    }

    /** Spending per hour since {@code since} (an hour's start), keyed by the hour's start in epoch milliseconds. */
    Map<Long, Hour> hourlySpends(Instant since) {
        return database.readMayLag(connection -> {
            Map<Long, Hour> hours = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(HOURLY_SPENDS)) {
                ps.setLong(1, since.toEpochMilli());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        hours.put(rs.getLong(1), new Hour(rs.getLong(2), rs.getLong(3)));
                    }
                }
            }
            return hours;
        });
    }

    List<TopAccount> topAccounts(Instant since, int limit) {
        return database.readMayLag(connection -> {
            List<TopAccount> top = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(TOP_ACCOUNTS)) {
                ps.setLong(1, since.toEpochMilli());
                ps.setInt(2, limit);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        top.add(new TopAccount(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)));
                    }
                }
            }
            return top;
        });
    }

    /** Failed webhook attempts (an error or a non-2xx answer) per hour since {@code since}. */
    Map<Long, Long> hourlyWebhookFailures(Instant since) {
        return database.readMayLag(connection -> {
            Map<Long, Long> hours = new HashMap<>();
            try (PreparedStatement ps = connection.prepareStatement(HOURLY_WEBHOOK_FAILURES)) {
                ps.setLong(1, since.toEpochMilli());
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        hours.put(rs.getLong(1), rs.getLong(2));
                    }
                }
            }
            return hours;
        });
    }
}
