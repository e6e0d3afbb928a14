package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.ledger.read.SlaMeter.Uptime;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * What callers and operators read of SLA credits (CONTRACT §13): an account's credits, newest first, and
 * what each account of a plan would be credited if its period ended now.
 */
public final class SlaReports {
    /** Credits one account's view lists. */
    public static final int MAX_CREDITS = 24;
    /** Accounts one preview measures: each costs a read of every SLA service's history. */
    public static final int MAX_PREVIEW_ACCOUNTS = 1000;

    private static final String SELECT_CREDITS = "SELECT grant_id, period_start, period_end, uptime, credit_percent,"
            + " amount, incidents FROM sla_periods WHERE account_id = :account_id AND amount > 0"
            + " ORDER BY period_start DESC LIMIT :limit";
    private static final String SELECT_PLAN_ACCOUNTS = "SELECT id, period_start, period_end, period_granted"
            + " FROM accounts WHERE plan_id = :plan_id AND period_start IS NOT NULL ORDER BY id LIMIT :limit";

    private final Database database;
    private final SlaMeter meter;

    public SlaReports(Database database, SlaMeter meter) {
        this.database = database;
        this.meter = meter;
    }

    /** One SLA credit an account got. */
    public record Credit(
            String grantId,
            Instant periodStart,
            Instant periodEnd,
            double uptime,
            int creditPercent,
            long amount,
            List<String> incidents) {}

    /** The period so far, measured: its uptime, and the credit percent and tokens if it ended now. */
    public record SoFar(Period period, Uptime uptime, int creditPercentIfEndedNow, long creditIfEndedNow) {}

    /** One account's credit if its period ended now. */
    public record Preview(String accountId, SoFar soFar) {}

    public SlaMeter meter() {
        return meter;
    }

    /** The account's SLA credits, newest first, at most {@link #MAX_CREDITS}. */
    public List<Credit> credits(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_CREDITS)
                        .bind("account_id", accountId)
                        .bind("limit", MAX_CREDITS)
                        .map((rs, ctx) -> credit(rs))
                        .list();
            }
        });
    }

    private static Credit credit(ResultSet rs) throws SQLException {
        String incidents = rs.getString("incidents");
        return new Credit(
                rs.getString("grant_id"),
                Rows.instant(rs, "period_start"),
                Rows.instant(rs, "period_end"),
                rs.getDouble("uptime"),
                rs.getInt("credit_percent"),
                rs.getLong("amount"),
                incidents.isEmpty() ? List.of() : Arrays.asList(incidents.split(",", -1)));
    }

    /** The period from its start to {@code now}, measured against the SLA; {@code allowance} is what it granted. */
    public SoFar soFar(SlaTerms sla, Period period, long allowance, Instant now) {
        Instant to = now.isBefore(period.end()) ? now : period.end();
        Uptime uptime = meter.uptime(sla, period.start(), to);
        int percent =
                sla.tierFor(uptime.lowest()).map(SlaTerms.Tier::creditPercent).orElse(0);
        return new SoFar(period, uptime, percent, Math.multiplyExact(allowance, percent) / 100);
    }

    /** The plan's accounts (the first {@link #MAX_PREVIEW_ACCOUNTS} by id) as if their periods ended now. */
    public List<Preview> preview(String planId, SlaTerms sla, Instant now) {
        record Row(String accountId, Period period, long granted) {}
        List<Row> rows = database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_PLAN_ACCOUNTS)
                        .bind("plan_id", planId)
                        .bind("limit", MAX_PREVIEW_ACCOUNTS)
                        .map((rs, ctx) -> new Row(
                                rs.getString("id"),
                                new Period(Rows.instant(rs, "period_start"), Rows.instant(rs, "period_end")),
                                rs.getLong("period_granted")))
                        .list();
            }
        });
        List<Preview> previews = new ArrayList<>();
        for (Row row : rows) {
            previews.add(new Preview(row.accountId(), soFar(sla, row.period(), row.granted(), now)));
        }
        return previews;
    }
}
