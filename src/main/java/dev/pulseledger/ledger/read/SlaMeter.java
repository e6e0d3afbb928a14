package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.ledger.core.SlaMeasurement;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.jdbi.v3.core.Handle;

/**
 * Measures an account's period against its plan's SLA (CONTRACT §13): each service's time-weighted uptime
 * by the one rule of §9 ({@code UptimeCalculator}), the lowest of them, the incidents on those services that
 * overlapped the period, and the allowance the period granted.
 */
public final class SlaMeter {
    /** Incidents listed with one credit at most: a period with more is an outage anyway. */
    static final int MAX_INCIDENTS = 100;

    private static final String SELECT_INCIDENTS = "SELECT DISTINCT i.id, i.created_at FROM incidents i"
            + " JOIN incident_update_services s ON s.incident_id = i.id"
            + " WHERE s.service_id = :service_id AND i.created_at < :to"
            + " AND (i.resolved_at IS NULL OR i.resolved_at > :from)"
            + " ORDER BY i.created_at, i.id";
    /**
     * The {@code default} pool's allowance grants that started in the period: the renewal's, and the prorated
     * one of a plan change within it (CONTRACT §13); of a grant such a change ended early, what it gave before.
     */
    private static final String SELECT_ALLOWANCE = "SELECT COALESCE(SUM(CASE WHEN expires_at < :period_end"
            + " THEN amount - expired ELSE amount END), 0), COUNT(*) FROM grants"
            + " WHERE account_id = :account_id AND kind = 'allowance' AND pool = 'default'"
            + " AND period_start >= :period_start AND period_start < :period_end";

    private final Database database;
    private final StatusHistory history;

    public SlaMeter(Database database, StatusHistory history) {
        this.database = database;
        this.history = history;
    }

    /** One service's uptime over the window; empty when the service did not exist in it. */
    public record ServiceUptime(String serviceId, Optional<Double> uptime) {}

    /** The window's SLA uptime (the lowest of the services', 1 when none has data) and each service's. */
    public record Uptime(double lowest, List<ServiceUptime> services) {}

    /** The SLA's services' uptime from {@code from} to {@code to}. */
    public Uptime uptime(SlaTerms sla, Instant from, Instant to) {
        List<ServiceUptime> services = new ArrayList<>();
        double lowest = 1.0;
        for (String serviceId : sla.services()) {
            Optional<Double> uptime = to.isAfter(from) ? history.uptime(serviceId, from, to) : Optional.empty();
            services.add(new ServiceUptime(serviceId, uptime));
            if (uptime.isPresent() && uptime.get() < lowest) {
                lowest = uptime.get();
            }
        }
        return new Uptime(lowest, services);
    }

    /**
     * The measurement of an ended period, for the ledger to credit: the allowance that period granted (the
     * allowance grants of that period; for a period the account was idle through, which granted none, the
     * plan's {@code planAllowance}).
     */
    public SlaMeasurement measure(String accountId, SlaTerms sla, Period period, long planAllowance) {
        return new SlaMeasurement(
                period,
                uptime(sla, period.start(), period.end()).lowest(),
                sla,
                periodAllowance(accountId, period, planAllowance),
                incidents(sla, period.start(), period.end()));
    }

    /** The ids of the incidents on the SLA's services that overlapped the window, oldest first. */
    public List<String> incidents(SlaTerms sla, Instant from, Instant to) {
        return database.read(connection -> {
            Set<String> ids = new LinkedHashSet<>();
            try (Handle sql = Sql.on(connection)) {
                for (String serviceId : sla.services()) {
                    try (Stream<String> found = sql
                            .createQuery(SELECT_INCIDENTS)
                            .bind("service_id", serviceId)
                            .bind("to", to.toEpochMilli())
                            .bind("from", from.toEpochMilli())
                            .mapTo(String.class)
                            .stream()) {
                        found.takeWhile(id -> ids.size() < MAX_INCIDENTS).forEach(ids::add);
                    }
                }
            }
            return List.copyOf(ids);
        });
    }

    /** The allowance the period granted, or {@code planAllowance} when it granted none (an idle period). */
    public long periodAllowance(String accountId, Period period, long planAllowance) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ALLOWANCE)
                        .bind("period_end", period.end().toEpochMilli())
                        .bind("account_id", accountId)
                        .bind("period_start", period.start().toEpochMilli())
                        .map((rs, ctx) -> rs.getLong(2) > 0 ? rs.getLong(1) : planAllowance)
                        .one();
            }
        });
    }
}
