package dev.pulseledger.status.history;

import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.StatusSource;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Reads the status history of services: the operator's change log, and uptime computed from it. */
public final class StatusHistory {
    /** Changes one uptime report reads at most: a service flapping faster than this is an outage anyway. */
    static final int MAX_CHANGES_PER_REPORT = 100_000;

    private static final String CHANGE_COLUMNS =
            "seq, service_id, from_status, to_status, source_type, source_id, changed_at";
    private static final String SELECT_SERVICE = "SELECT status, created_at, updated_at FROM services WHERE id = :id";
    private static final String SELECT_SINCE = "SELECT " + CHANGE_COLUMNS
            + " FROM status_changes WHERE service_id = :service_id AND changed_at >= :from ORDER BY changed_at, seq";
    private static final String SELECT_PAGE = "SELECT " + CHANGE_COLUMNS
            + " FROM status_changes WHERE service_id = :service_id AND seq < :before_seq ORDER BY seq DESC LIMIT :limit";

    private final Database database;

    public StatusHistory(Database database) {
        this.database = database;
    }

    /** The service's daily uptime over the last {@code days} UTC days up to {@code now}; empty without the service. */
    public Optional<UptimeReport> uptime(String serviceId, int days, Instant now) {
        Instant windowStart = LocalDate.ofInstant(now, ZoneOffset.UTC)
                .minusDays(days - 1L)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant();
        return database.readMayLag(connection -> history(connection, serviceId, windowStart)
                .map(h -> UptimeCalculator.compute(h.createdAt(), h.status(), h.changes(), now, days)));
    }

    /**
     * The service's uptime from {@code from} to {@code to} (an SLA period, CONTRACT §13); empty without the
     * service or when it did not exist then. Read from the primary: a credit must not miss a recent change.
     */
    public Optional<Double> uptime(String serviceId, Instant from, Instant to) {
        return database.read(connection -> history(connection, serviceId, from)
                .flatMap(h -> UptimeCalculator.uptime(h.createdAt(), h.status(), h.changes(), from, to)));
    }

    /** What uptime needs of a service: its creation, its status now and its changes since {@code from}. */
    private record History(Instant createdAt, ServiceStatus status, List<StatusChange> changes) {}

    private static Optional<History> history(Connection connection, String serviceId, Instant from) {
        try (Handle sql = Sql.on(connection)) {
            Optional<Existence> service = existence(sql, serviceId);
            if (service.isEmpty()) {
                return Optional.empty();
            }
            List<StatusChange> changes = sql.createQuery(SELECT_SINCE)
                    .setMaxRows(MAX_CHANGES_PER_REPORT)
                    .bind("service_id", serviceId)
                    .bind("from", from.toEpochMilli())
                    .map((rs, ctx) -> change(rs))
                    .list();
            return Optional.of(
                    new History(service.get().createdAt(), service.get().status(), changes));
        }
    }

    /** The service's changes newest first, starting before sequence {@code beforeSeq}. */
    public Page<StatusChange> changes(String serviceId, long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Sequenced> rows = sql.createQuery(SELECT_PAGE)
                        .bind("service_id", serviceId)
                        .bind("before_seq", beforeSeq)
                        .bind("limit", limit + 1)
                        .map((rs, ctx) -> new Sequenced(rs.getLong("seq"), change(rs)))
                        .list();
                Page<Sequenced> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(page.items().stream().map(Sequenced::change).toList(), page.nextPosition());
            }
        });
    }

    private record Sequenced(long seq, StatusChange change) {}

    /** What uptime needs of the service itself. */
    private record Existence(ServiceStatus status, Instant createdAt) {}

    private static Optional<Existence> existence(Handle sql, String serviceId) {
        return sql.createQuery(SELECT_SERVICE)
                .bind("id", serviceId)
                .map((rs, ctx) -> new Existence(
                        status(rs.getString("status")),
                        Rows.optionalInstant(rs, "created_at").orElse(Rows.instant(rs, "updated_at"))))
                .findOne();
    }

    private static StatusChange change(ResultSet rs) throws SQLException {
        String from = rs.getString("from_status");
        return new StatusChange(
                rs.getString("service_id"),
                from == null ? Optional.empty() : Optional.of(status(from)),
                status(rs.getString("to_status")),
                new StatusSource(
                        StatusSource.Kind.fromWire(rs.getString("source_type")).orElseThrow(),
                        Optional.ofNullable(rs.getString("source_id"))),
                Rows.instant(rs, "changed_at"));
    }

    private static ServiceStatus status(String wire) {
        return ServiceStatus.fromWire(wire).orElse(ServiceStatus.UNKNOWN);
    }
}
