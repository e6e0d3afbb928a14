package dev.pulseledger.ledger.write;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.ledger.core.SlaCreditResult;
import dev.pulseledger.ledger.read.SlaMeter;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.ScheduledSweep;
import dev.pulseledger.store.Sql;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * The SLA sweep (CONTRACT §13): after the renewal has moved an account on a plan with an SLA into a new
 * period, it measures every ended period not yet measured (each period an idle account slept through too,
 * unlike the renewal, which grants only the current one) and hands each measurement to the ledger, whose
 * core credits a breach once: the account's lock and the {@code sla_periods} primary key make a second
 * node's or a second run's attempt {@code AlreadyMeasured}. Every node sweeps; a period is measured after
 * any downtime, when the sweep next runs.
 */
public final class SlaCredits implements AutoCloseable {
    /** A run every second, of up to 10 batches of 100 accounts. */
    public static final ScheduledSweep.Limits DEFAULT_LIMITS =
            new ScheduledSweep.Limits(Duration.ofSeconds(1), 100, 10);
    /** Ended periods one account has measured per run: a daily plan idle for over a year takes two runs. */
    static final int MAX_PERIODS_PER_ACCOUNT = 400;

    /**
     * The period before the current one ended after the SLA was set and is not measured yet. The first
     * condition names no row, so both databases test it once, before the join: without a plan that has an
     * SLA the sweep reads no account (else the join scanned every account every second, plan or not).
     */
    private static final String SELECT_DUE = "SELECT a.id, a.period_anchor, a.period_start, p.period, p.allowance,"
            + " p.sla, p.sla_since,"
            + " (SELECT MAX(s.period_end) FROM sla_periods s WHERE s.account_id = a.id) AS measured_until"
            + " FROM accounts a JOIN plans p ON p.id = a.plan_id"
            + " WHERE EXISTS (SELECT 1 FROM plans sla_plan WHERE sla_plan.sla IS NOT NULL)"
            + " AND p.sla IS NOT NULL AND a.period_start > a.period_anchor AND a.period_start > p.sla_since"
            + " AND NOT EXISTS (SELECT 1 FROM sla_periods s WHERE s.account_id = a.id"
            + " AND s.period_end >= a.period_start)"
            + " ORDER BY a.id LIMIT :limit";

    private final Database database;
    private final LedgerWriter ledger;
    private final SlaMeter meter;
    private final ScheduledSweep sweep;
    private final Counter credits;
    private final Counter tokens;

    public SlaCredits(
            Database database,
            LedgerWriter ledger,
            SlaMeter meter,
            MeterRegistry metrics,
            ScheduledSweep.Limits limits) {
        this.database = database;
        this.ledger = ledger;
        this.meter = meter;
        this.sweep = new ScheduledSweep("sla-credits", limits, this::measureDue);
        this.credits = Counter.builder("pulseledger.sla.credits")
                .description("SLA credits granted by this node (CONTRACT §13)")
                .register(metrics);
        this.tokens = Counter.builder("pulseledger.sla.credited.tokens")
                .description("Tokens granted as SLA credits by this node")
                .register(metrics);
    }

    public SlaCredits start() {
        sweep.start(Duration.ZERO);
        return this;
    }

    /** Measures the ended periods of due accounts; returns how many accounts it handled. */
    public int run() {
        return sweep.runOnce();
    }

    /** An account whose ended periods wait to be measured, as the sweep read it. */
    private record Due(
            String accountId,
            Instant anchor,
            Instant currentStart,
            PlanPeriod length,
            long allowance,
            SlaTerms sla,
            Instant slaSince,
            Instant measuredUntil) {

        /** The periods that ended after the SLA was set and after the last one measured, oldest first. */
        List<Period> periods() {
            List<Period> periods = new ArrayList<>();
            Instant from = measuredUntil.isAfter(anchor) ? measuredUntil : anchor;
            Period period = Period.containing(anchor, length, from);
            while (!period.end().isAfter(currentStart) && periods.size() < MAX_PERIODS_PER_ACCOUNT) {
                if (period.end().isAfter(slaSince)) {
                    periods.add(period);
                }
                period = Period.containing(anchor, length, period.end());
            }
            return periods;
        }
    }

    private int measureDue(int batchSize) {
        List<Due> due = due(batchSize);
        for (Due account : due) {
            for (Period period : account.periods()) {
                SlaCreditResult result = ledger.slaCredit(
                        account.accountId(),
                        meter.measure(account.accountId(), account.sla(), period, account.allowance()));
                if (result instanceof SlaCreditResult.Credited credited) {
                    credits.increment();
                    tokens.increment((double) credited.amount());
                }
            }
        }
        return due.size();
    }

    private List<Due> due(int batchSize) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_DUE)
                        .bind("limit", batchSize)
                        .map((rs, ctx) -> new Due(
                                rs.getString("id"),
                                Rows.instant(rs, "period_anchor"),
                                Rows.instant(rs, "period_start"),
                                PlanPeriod.fromWire(rs.getString("period")).orElseThrow(),
                                rs.getLong("allowance"),
                                SlaTerms.fromText(rs.getString("sla")),
                                Rows.instant(rs, "sla_since"),
                                Rows.optionalInstant(rs, "measured_until").orElse(Instant.EPOCH)))
                        .list();
            }
        });
    }

    @Override
    public void close() {
        sweep.close();
    }
}
