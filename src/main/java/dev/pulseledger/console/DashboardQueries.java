package dev.pulseledger.console;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/** SQL behind the dashboard: hourly spends, refusals and webhook failures, and the top spenders. */
final class DashboardQueries {
    private static final String HOURLY_SPENDS = "SELECT hour_start, SUM(tokens), SUM(refusals) FROM spend_activity"
            + " WHERE hour_start >= :since GROUP BY hour_start";
    private static final String TOP_ACCOUNTS = "SELECT s.account_id, a.name, SUM(s.tokens) AS spent,"
            + " SUM(s.spends) AS spends FROM spend_activity s JOIN accounts a ON a.id = s.account_id"
            + " WHERE s.hour_start >= :since GROUP BY s.account_id, a.name HAVING SUM(s.tokens) > 0"
            + " ORDER BY spent DESC, s.account_id LIMIT :rows";
    private static final String HOURLY_WEBHOOK_FAILURES = "SELECT started_at / 3600000 * 3600000 AS hour_start,"
            + " COUNT(*) FROM webhook_attempts WHERE started_at >= :since"
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
            try (Handle sql = Sql.on(connection)) {
                sql.createQuery(HOURLY_SPENDS)
                        .bind("since", since.toEpochMilli())
                        .map((rs, ctx) -> Map.entry(rs.getLong(1), new Hour(rs.getLong(2), rs.getLong(3))))
                        .forEach(hour -> hours.put(hour.getKey(), hour.getValue()));
            }
            return hours;
        });
    }

    List<TopAccount> topAccounts(Instant since, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(TOP_ACCOUNTS)
                        .bind("since", since.toEpochMilli())
                        .bind("rows", limit)
                        .map((rs, ctx) ->
                                new TopAccount(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getLong(4)))
                        .list();
            }
        });
    }

    /** Failed webhook attempts (an error or a non-2xx answer) per hour since {@code since}. */
    Map<Long, Long> hourlyWebhookFailures(Instant since) {
        return database.readMayLag(connection -> {
            Map<Long, Long> hours = new HashMap<>();
            try (Handle sql = Sql.on(connection)) {
                sql.createQuery(HOURLY_WEBHOOK_FAILURES)
                        .bind("since", since.toEpochMilli())
                        .map((rs, ctx) -> Map.entry(rs.getLong(1), rs.getLong(2)))
                        .forEach(hour -> hours.put(hour.getKey(), hour.getValue()));
            }
            return hours;
        });
    }
}
