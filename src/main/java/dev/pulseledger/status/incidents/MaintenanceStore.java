package dev.pulseledger.status.incidents;

import dev.pulseledger.events.EventType;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.services.StatusSource;
import dev.pulseledger.store.ChildRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * SQL for maintenance windows. Each step (start, end) is claimed by a conditional update of the
 * window's status in the transaction that changes its services, so whichever node gets there first
 * takes it, exactly once, and a node that dies half-way leaves the step to the next one.
 */
public final class MaintenanceStore {
    /** Windows the feed lists at most: those in progress and the next to start. */
    public static final int MAX_UPCOMING = 50;

    /** Services one window may cover. */
    public static final int MAX_SERVICES = 100;

    /** Due steps one pass takes at most; the rest wait for the next pass. */
    static final int MAX_DUE_PER_PASS = 100;

    private static final String COLUMNS = "seq, id, title, message, status, starts_at, ends_at, created_at,"
            + " updated_at, started_at, completed_at";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM maintenances WHERE id = :id";
    private static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM maintenances WHERE seq < :before_seq ORDER BY seq DESC LIMIT :limit";
    private static final String SELECT_UPCOMING = "SELECT " + COLUMNS
            + " FROM maintenances WHERE status IN ('scheduled', 'in_progress') ORDER BY starts_at, seq LIMIT :limit";
    private static final String SELECT_DUE_STARTS = "SELECT id FROM maintenances WHERE status = 'scheduled'"
            + " AND starts_at <= :now ORDER BY starts_at, seq LIMIT :limit";
    private static final String SELECT_DUE_ENDS = "SELECT id FROM maintenances WHERE status = 'in_progress'"
            + " AND ends_at <= :now ORDER BY ends_at, seq LIMIT :limit";
    private static final String SELECT_SERVICES = "SELECT service_id, previous_status FROM maintenance_services"
            + " WHERE maintenance_id = :maintenance_id ORDER BY service_id";
    private static final String SELECT_SERVICES_OF = "SELECT maintenance_id, service_id FROM maintenance_services"
            + " WHERE maintenance_id IN (<ids>) ORDER BY maintenance_id, service_id";
    private static final String INSERT = "INSERT INTO maintenances (id, title, message, status, starts_at, ends_at,"
            + " created_at, updated_at) VALUES (:id, :title, :message, 'scheduled', :starts_at, :ends_at, :at, :at)";
    private static final String INSERT_SERVICE =
            "INSERT INTO maintenance_services (maintenance_id, service_id)" + " VALUES (:maintenance_id, :service_id)";
    private static final String UPDATE_TEXT = "UPDATE maintenances SET title = :title, message = :message,"
            + " starts_at = :starts_at, ends_at = :ends_at, updated_at = :updated_at WHERE id = :id";
    private static final String CLAIM_START = "UPDATE maintenances SET status = 'in_progress', started_at = :now,"
            + " updated_at = :now WHERE id = :id AND status = 'scheduled' AND starts_at <= :now";
    private static final String CLAIM_END = "UPDATE maintenances SET status = 'completed', completed_at = :now,"
            + " updated_at = :now WHERE id = :id AND status = :from AND ends_at <= :now";
    private static final String SET_PREVIOUS = "UPDATE maintenance_services SET previous_status = :previous_status"
            + " WHERE maintenance_id = :maintenance_id AND service_id = :service_id";
    private static final String SELECT_OTHER_WINDOW = "SELECT ms.maintenance_id, ms.previous_status FROM"
            + " maintenance_services ms JOIN maintenances m ON m.id = ms.maintenance_id WHERE ms.service_id = :service_id"
            + " AND m.status = 'in_progress' AND m.id <> :id ORDER BY m.seq LIMIT 1";
    private static final String DELETE = "DELETE FROM maintenances WHERE id = :id";
    /** A change of the window's text or times; empty fields keep their values. */
    public record Edit(
            Optional<String> title,
            Optional<String> message,
            Optional<Instant> startsAt,
            Optional<Instant> endsAt,
            Instant at) {}

    private final Database database;
    private final ServiceStore services;
    private final Outbox outbox;
    private final NoticeSink notices;
    private final String selectForUpdate;

    public MaintenanceStore(Database database, ServiceStore services, Outbox outbox, NoticeSink notices) {
        this.database = database;
        this.services = services;
        this.outbox = outbox;
        this.notices = notices;
        this.selectForUpdate = SELECT_ONE + database.dialect().lockClause();
    }

    public MaintenanceWrite create(
            String title, String message, SortedSet<String> serviceIds, Instant startsAt, Instant endsAt, Instant at) {
        return database.inTransaction(connection -> {
            List<String> unknown = new ArrayList<>();
            for (String serviceId : serviceIds) {
                if (services.findForUpdate(connection, serviceId).isEmpty()) {
                    unknown.add(serviceId);
                }
            }
            if (!unknown.isEmpty()) {
                return new MaintenanceWrite.UnknownServices(unknown);
            }
            String id = Ids.maintenance();
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(INSERT)
                        .bind("id", id)
                        .bind("title", title)
                        .bind("message", message)
                        .bind("starts_at", startsAt.toEpochMilli())
                        .bind("ends_at", endsAt.toEpochMilli())
                        .bind("at", at.toEpochMilli())
                        .execute();
                PreparedBatch batch = sql.prepareBatch(INSERT_SERVICE);
                for (String serviceId : serviceIds) {
                    batch.bind("maintenance_id", id)
                            .bind("service_id", serviceId)
                            .add();
                }
                if (batch.size() > 0) {
                    batch.execute();
                }
                Maintenance created = load(sql, SELECT_ONE, id).orElseThrow();
                notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_SCHEDULED, created), at);
                return new MaintenanceWrite.Written(created);
            }
        });
    }

    /** Changes text or times; a start already passed cannot move, and an end must stay after the start. */
    public MaintenanceWrite edit(String id, Edit edit) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Maintenance> found = load(sql, selectForUpdate, id);
                if (found.isEmpty()) {
                    return new MaintenanceWrite.NotFound();
                }
                Maintenance current = found.get();
                if (current.status() == MaintenanceStatus.COMPLETED
                        && (edit.startsAt().isPresent() || edit.endsAt().isPresent())) {
                    return new MaintenanceWrite.Refused(
                            ProblemCode.MAINTENANCE_COMPLETED, "A completed window's times cannot change.");
                }
                if (current.status() == MaintenanceStatus.IN_PROGRESS
                        && edit.startsAt().isPresent()) {
                    return new MaintenanceWrite.Refused(
                            ProblemCode.MAINTENANCE_STARTED, "The window has started: only its end can move.");
                }
                Instant startsAt = edit.startsAt().orElse(current.startsAt());
                Instant endsAt = edit.endsAt().orElse(current.endsAt());
                if (!endsAt.isAfter(startsAt)) {
                    return new MaintenanceWrite.Refused(ProblemCode.INVALID_WINDOW, "endsAt must be after startsAt.");
                }
                sql.createUpdate(UPDATE_TEXT)
                        .bind("title", edit.title().orElse(current.title()))
                        .bind("message", edit.message().orElse(current.message()))
                        .bind("starts_at", startsAt.toEpochMilli())
                        .bind("ends_at", endsAt.toEpochMilli())
                        .bind("updated_at", edit.at().toEpochMilli())
                        .bind("id", id)
                        .execute();
                Maintenance changed = load(sql, SELECT_ONE, id).orElseThrow();
                notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_CHANGED, changed), edit.at());
                return new MaintenanceWrite.Written(changed);
            }
        });
    }

    /** Removes the window; one in progress first puts its services back, as if it had ended now. */
    public boolean delete(String id, Instant at) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Maintenance> found = load(sql, selectForUpdate, id);
                if (found.isEmpty()) {
                    return false;
                }
                if (found.get().status() == MaintenanceStatus.IN_PROGRESS) {
                    outbox.append(connection, restoreServices(connection, sql, id, at), at);
                }
                if (found.get().status() != MaintenanceStatus.COMPLETED) {
                    notices.record(
                            connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_CANCELLED, found.get()), at);
                }
                sql.createUpdate(DELETE).bind("id", id).execute();
                return true;
            }
        });
    }

    public Optional<Maintenance> find(String id) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return load(sql, SELECT_ONE, id);
            }
        });
    }

    /** Every window, newest first, starting before sequence {@code beforeSeq}. */
    public Page<Maintenance> page(long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Row> rows = sql.createQuery(SELECT_PAGE)
                        .bind("before_seq", beforeSeq)
                        .bind("limit", limit + 1)
                        .map((rs, ctx) -> row(rs))
                        .list();
                Page<Row> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(withServices(sql, page.items()), page.nextPosition());
            }
        });
    }

    /** Windows in progress or still to come, soonest first. */
    public List<Maintenance> upcoming() {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Row> rows = sql.createQuery(SELECT_UPCOMING)
                        .bind("limit", MAX_UPCOMING)
                        .map((rs, ctx) -> row(rs))
                        .list();
                return withServices(sql, rows);
            }
        });
    }

    /** Starts every window due by {@code now} that no node has started yet; the number this call started. */
    public int startDue(Instant now) {
        int started = 0;
        for (String id : due(SELECT_DUE_STARTS, now)) {
            if (database.inTransaction(connection -> start(connection, id, now))) {
                started++;
            }
        }
        return started;
    }

    /** Ends every window due by {@code now} that no node has ended yet; the number this call ended. */
    public int endDue(Instant now) {
        int ended = 0;
        for (String id : due(SELECT_DUE_ENDS, now)) {
            if (database.inTransaction(connection -> {
                try (Handle sql = Sql.on(connection)) {
                    return end(connection, sql, id, MaintenanceStatus.IN_PROGRESS, now);
                }
            })) {
                ended++;
            }
        }
        return ended;
    }

    private List<String> due(String select, Instant now) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(select)
                        .bind("now", now.toEpochMilli())
                        .bind("limit", MAX_DUE_PER_PASS)
                        .mapTo(String.class)
                        .list();
            }
        });
    }

    /**
     * Claims the start; only the transaction whose update matched goes on to put the services under
     * maintenance. A window whose end has also passed (no node was up in it) ends without touching them.
     */
    private boolean start(Connection connection, String id, Instant now) throws SQLException {
        try (Handle sql = Sql.on(connection)) {
            Maintenance window = load(sql, SELECT_ONE, id).orElse(null);
            if (window == null) {
                return false;
            }
            if (!window.endsAt().isAfter(now)) {
                return end(connection, sql, id, MaintenanceStatus.SCHEDULED, now);
            }
            if (sql.createUpdate(CLAIM_START)
                            .bind("now", now.toEpochMilli())
                            .bind("id", id)
                            .execute()
                    != 1) {
                return false;
            }
            List<NewEvent> events = new ArrayList<>();
            for (String serviceId : window.services()) {
                Optional<Service> service = services.findForUpdate(connection, serviceId);
                if (service.isEmpty()) {
                    continue;
                }
                setPrevious(sql, id, serviceId, service.get().status());
                services.changeStatus(
                                connection,
                                service.get(),
                                ServiceStatus.UNDER_MAINTENANCE,
                                StatusSource.maintenance(id),
                                now)
                        .ifPresent(events::add);
            }
            outbox.append(connection, events, now);
            notices.record(
                    connection,
                    StatusNotice.of(
                            EventType.STATUS_MAINTENANCE_STARTED,
                            load(sql, SELECT_ONE, id).orElseThrow()),
                    now);
            return true;
        }
    }

    /** Claims the end from {@code from} and, if the window had started, puts its services back. */
    private boolean end(Connection connection, Handle sql, String id, MaintenanceStatus from, Instant now)
            throws SQLException {
        if (sql.createUpdate(CLAIM_END)
                        .bind("now", now.toEpochMilli())
                        .bind("id", id)
                        .bind("from", from.wire())
                        .execute()
                != 1) {
            return false;
        }
        if (from == MaintenanceStatus.IN_PROGRESS) {
            outbox.append(connection, restoreServices(connection, sql, id, now), now);
        }
        Optional<Maintenance> ended = load(sql, SELECT_ONE, id);
        if (ended.isPresent()) {
            notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_COMPLETED, ended.get()), now);
        }
        return true;
    }

    /**
     * Puts each service back to its status from before the window, unless someone changed it during
     * the window (then theirs stands) or another window still holds it (which then puts it back).
     */
    private List<NewEvent> restoreServices(Connection connection, Handle sql, String id, Instant now) {
        List<NewEvent> events = new ArrayList<>();
        for (Map.Entry<String, Optional<ServiceStatus>> entry :
                previousStatuses(sql, id).entrySet()) {
            Optional<Service> service = services.findForUpdate(connection, entry.getKey());
            if (service.isEmpty()
                    || service.get().status() != ServiceStatus.UNDER_MAINTENANCE
                    || entry.getValue().isEmpty()) {
                continue;
            }
            if (handedToAnotherWindow(sql, id, entry.getKey(), entry.getValue().get())) {
                continue;
            }
            services.changeStatus(connection, service.get(), entry.getValue().get(), StatusSource.maintenance(id), now)
                    .ifPresent(events::add);
        }
        return events;
    }

    /** True when another window in progress covers the service; it inherits the status to put back. */
    private static boolean handedToAnotherWindow(Handle sql, String id, String serviceId, ServiceStatus previous) {
        Optional<Holder> other = sql.createQuery(SELECT_OTHER_WINDOW)
                .bind("service_id", serviceId)
                .bind("id", id)
                .map((rs, ctx) -> new Holder(rs.getString(1), Optional.ofNullable(rs.getString(2))))
                .findFirst();
        if (other.isEmpty()) {
            return false;
        }
        if (other.get().previous().isEmpty()
                || other.get().previous().get().equals(ServiceStatus.UNDER_MAINTENANCE.wire())) {
            setPrevious(sql, other.get().maintenanceId(), serviceId, previous);
        }
        return true;
    }

    /** Another window holding a service, with the status it will put back (if it has one yet). */
    private record Holder(String maintenanceId, Optional<String> previous) {}

    private static void setPrevious(Handle sql, String id, String serviceId, ServiceStatus status) {
        sql.createUpdate(SET_PREVIOUS)
                .bind("previous_status", status.wire())
                .bind("maintenance_id", id)
                .bind("service_id", serviceId)
                .execute();
    }

    private static Map<String, Optional<ServiceStatus>> previousStatuses(Handle sql, String id) {
        Map<String, Optional<ServiceStatus>> previous = new TreeMap<>();
        sql.createQuery(SELECT_SERVICES)
                .bind("maintenance_id", id)
                .map((rs, ctx) -> Map.entry(
                        rs.getString("service_id"),
                        Optional.ofNullable(rs.getString("previous_status")).flatMap(ServiceStatus::fromWire)))
                .forEach(service -> previous.put(service.getKey(), service.getValue()));
        return previous;
    }

    private static Optional<Maintenance> load(Handle sql, String select, String id) {
        return sql.createQuery(select)
                .bind("id", id)
                .map((rs, ctx) -> row(rs))
                .findOne()
                .map(row -> withServices(sql, List.of(row)).getFirst());
    }

    /** A window's own columns, before its services are read. */
    private record Row(
            long seq,
            String id,
            String title,
            String message,
            MaintenanceStatus status,
            Instant startsAt,
            Instant endsAt,
            Instant createdAt,
            Instant updatedAt,
            Optional<Instant> startedAt,
            Optional<Instant> completedAt) {}

    private static Row row(ResultSet rs) throws SQLException {
        return new Row(
                rs.getLong("seq"),
                rs.getString("id"),
                rs.getString("title"),
                rs.getString("message"),
                MaintenanceStatus.fromWire(rs.getString("status")).orElseThrow(),
                Rows.instant(rs, "starts_at"),
                Rows.instant(rs, "ends_at"),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "updated_at"),
                Rows.optionalInstant(rs, "started_at"),
                Rows.optionalInstant(rs, "completed_at"));
    }

    /** The windows of {@code rows} with their services, read in one query whatever their number. */
    private static List<Maintenance> withServices(Handle sql, List<Row> rows) {
        Map<String, SortedSet<String>> services = ChildRows.sortedByParent(
                sql, SELECT_SERVICES_OF, rows.stream().map(Row::id).toList());
        return rows.stream()
                .map(row -> maintenance(row, services.getOrDefault(row.id(), new TreeSet<>())))
                .toList();
    }

    private static Maintenance maintenance(Row row, SortedSet<String> serviceIds) {
        return new Maintenance(
                row.id(),
                row.title(),
                row.message(),
                row.status(),
                serviceIds,
                row.startsAt(),
                row.endsAt(),
                row.createdAt(),
                row.updatedAt(),
                row.startedAt(),
                row.completedAt());
    }
}
