package dev.pulseledger.status.incidents;

import dev.pulseledger.events.EventType;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.services.StatusSource;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
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
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM maintenances WHERE id = ?";
    private static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM maintenances WHERE seq < ? ORDER BY seq DESC LIMIT ?";
    private static final String SELECT_UPCOMING = "SELECT " + COLUMNS
            + " FROM maintenances WHERE status IN ('scheduled', 'in_progress') ORDER BY starts_at, seq LIMIT ?";
    private static final String SELECT_DUE_STARTS = "SELECT id FROM maintenances WHERE status = 'scheduled'"
            + " AND starts_at <= ? ORDER BY starts_at, seq LIMIT ?";
    private static final String SELECT_DUE_ENDS = "SELECT id FROM maintenances WHERE status = 'in_progress'"
            + " AND ends_at <= ? ORDER BY ends_at, seq LIMIT ?";
    private static final String SELECT_SERVICES = "SELECT service_id, previous_status FROM maintenance_services"
            + " WHERE maintenance_id = ? ORDER BY service_id";
    private static final String INSERT = "INSERT INTO maintenances (id, title, message, status, starts_at, ends_at,"
            + " created_at, updated_at) VALUES (?, ?, ?, 'scheduled', ?, ?, ?, ?)";
    private static final String INSERT_SERVICE =
            "INSERT INTO maintenance_services (maintenance_id, service_id) VALUES (?, ?)";
    private static final String UPDATE_TEXT = "UPDATE maintenances SET title = ?, message = ?, starts_at = ?,"
            + " ends_at = ?, updated_at = ? WHERE id = ?";
    private static final String CLAIM_START = "UPDATE maintenances SET status = 'in_progress', started_at = ?,"
            + " updated_at = ? WHERE id = ? AND status = 'scheduled' AND starts_at <= ?";
    private static final String CLAIM_END = "UPDATE maintenances SET status = 'completed', completed_at = ?,"
            + " updated_at = ? WHERE id = ? AND status = ? AND ends_at <= ?";
    private static final String SET_PREVIOUS =
            "UPDATE maintenance_services SET previous_status = ? WHERE maintenance_id = ? AND service_id = ?";
    private static final String SELECT_OTHER_WINDOW = "SELECT ms.maintenance_id, ms.previous_status FROM"
            + " maintenance_services ms JOIN maintenances m ON m.id = ms.maintenance_id WHERE ms.service_id = ?"
            + " AND m.status = 'in_progress' AND m.id <> ? ORDER BY m.seq LIMIT 1";
    private static final String DELETE = "DELETE FROM maintenances WHERE id = ?";

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
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, id);
                ps.setString(2, title);
                ps.setString(3, message);
                ps.setLong(4, startsAt.toEpochMilli());
                ps.setLong(5, endsAt.toEpochMilli());
                ps.setLong(6, at.toEpochMilli());
                ps.setLong(7, at.toEpochMilli());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_SERVICE)) {
                for (String serviceId : serviceIds) {
                    ps.setString(1, id);
                    ps.setString(2, serviceId);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            Maintenance created = load(connection, SELECT_ONE, id).orElseThrow();
            notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_SCHEDULED, created), at);
            return new MaintenanceWrite.Written(created);
        });
    }

    /** Changes text or times; a start already passed cannot move, and an end must stay after the start. */
    public MaintenanceWrite edit(String id, Edit edit) {
        return database.inTransaction(connection -> {
            Optional<Maintenance> found = load(connection, selectForUpdate, id);
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
            try (PreparedStatement ps = connection.prepareStatement(UPDATE_TEXT)) {
                ps.setString(1, edit.title().orElse(current.title()));
                ps.setString(2, edit.message().orElse(current.message()));
                ps.setLong(3, startsAt.toEpochMilli());
                ps.setLong(4, endsAt.toEpochMilli());
                ps.setLong(5, edit.at().toEpochMilli());
                ps.setString(6, id);
                ps.executeUpdate();
            }
            Maintenance changed = load(connection, SELECT_ONE, id).orElseThrow();
            notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_CHANGED, changed), edit.at());
            return new MaintenanceWrite.Written(changed);
        });
    }

    /** Removes the window; one in progress first puts its services back, as if it had ended now. */
    public boolean delete(String id, Instant at) {
        return database.inTransaction(connection -> {
            Optional<Maintenance> found = load(connection, selectForUpdate, id);
            if (found.isEmpty()) {
                return false;
            }
            if (found.get().status() == MaintenanceStatus.IN_PROGRESS) {
                outbox.append(connection, restoreServices(connection, id, at), at);
            }
            if (found.get().status() != MaintenanceStatus.COMPLETED) {
                notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_CANCELLED, found.get()), at);
            }
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, id);
                ps.executeUpdate();
            }
            return true;
        });
    }

    public Optional<Maintenance> find(String id) {
        return database.read(connection -> load(connection, SELECT_ONE, id));
    }

    /** Every window, newest first, starting before sequence {@code beforeSeq}. */
    public Page<Maintenance> page(long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_PAGE)) {
                ps.setLong(1, beforeSeq);
                ps.setInt(2, limit + 1);
                rows.addAll(rows(ps));
            }
            Page<Row> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
            List<Maintenance> items = new ArrayList<>();
            for (Row row : page.items()) {
                items.add(withServices(connection, row));
            }
            return new Page<>(items, page.nextPosition());
        });
    }

    /** Windows in progress or still to come, soonest first. */
    public List<Maintenance> upcoming() {
        return database.readMayLag(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_UPCOMING)) {
                ps.setInt(1, MAX_UPCOMING);
                List<Maintenance> items = new ArrayList<>();
                for (Row row : rows(ps)) {
                    items.add(withServices(connection, row));
                }
                return items;
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
            if (database.inTransaction(connection -> end(connection, id, MaintenanceStatus.IN_PROGRESS, now))) {
                ended++;
            }
        }
        return ended;
    }

    private List<String> due(String sql, Instant now) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(sql)) {
                ps.setLong(1, now.toEpochMilli());
                ps.setInt(2, MAX_DUE_PER_PASS);
                List<String> ids = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            }
        });
    }

    /**
     * Claims the start; only the transaction whose update matched goes on to put the services under
     * maintenance. A window whose end has also passed (no node was up in it) ends without touching them.
     */
    private boolean start(Connection connection, String id, Instant now) throws SQLException {
        Maintenance window = load(connection, SELECT_ONE, id).orElse(null);
        if (window == null) {
            return false;
        }
        if (!window.endsAt().isAfter(now)) {
            return end(connection, id, MaintenanceStatus.SCHEDULED, now);
        }
        try (PreparedStatement ps = connection.prepareStatement(CLAIM_START)) {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
            ps.setString(3, id);
            ps.setLong(4, now.toEpochMilli());
            if (ps.executeUpdate() != 1) {
                return false;
            }
        }
        List<NewEvent> events = new ArrayList<>();
        for (String serviceId : window.services()) {
            Optional<Service> service = services.findForUpdate(connection, serviceId);
            if (service.isEmpty()) {
                continue;
            }
            setPrevious(connection, id, serviceId, service.get().status());
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
                        load(connection, SELECT_ONE, id).orElseThrow()),
                now);
        return true;
    }

    /** Claims the end from {@code from} and, if the window had started, puts its services back. */
    private boolean end(Connection connection, String id, MaintenanceStatus from, Instant now) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(CLAIM_END)) {
            ps.setLong(1, now.toEpochMilli());
            ps.setLong(2, now.toEpochMilli());
            ps.setString(3, id);
            ps.setString(4, from.wire());
            ps.setLong(5, now.toEpochMilli());
            if (ps.executeUpdate() != 1) {
                return false;
            }
        }
        if (from == MaintenanceStatus.IN_PROGRESS) {
            outbox.append(connection, restoreServices(connection, id, now), now);
        }
        Optional<Maintenance> ended = load(connection, SELECT_ONE, id);
        if (ended.isPresent()) {
            notices.record(connection, StatusNotice.of(EventType.STATUS_MAINTENANCE_COMPLETED, ended.get()), now);
        }
        return true;
    }

    /**
     * Puts each service back to its status from before the window, unless someone changed it during
     * the window (then theirs stands) or another window still holds it (which then puts it back).
     */
    private List<NewEvent> restoreServices(Connection connection, String id, Instant now) throws SQLException {
        List<NewEvent> events = new ArrayList<>();
        for (Map.Entry<String, Optional<ServiceStatus>> entry :
                previousStatuses(connection, id).entrySet()) {
            Optional<Service> service = services.findForUpdate(connection, entry.getKey());
            if (service.isEmpty()
                    || service.get().status() != ServiceStatus.UNDER_MAINTENANCE
                    || entry.getValue().isEmpty()) {
                continue;
            }
            if (handedToAnotherWindow(
                    connection, id, entry.getKey(), entry.getValue().get())) {
                continue;
            }
            services.changeStatus(connection, service.get(), entry.getValue().get(), StatusSource.maintenance(id), now)
                    .ifPresent(events::add);
        }
        return events;
    }

    /** True when another window in progress covers the service; it inherits the status to put back. */
    private static boolean handedToAnotherWindow(
            Connection connection, String id, String serviceId, ServiceStatus previous) throws SQLException {
        String other;
        String otherPrevious;
        try (PreparedStatement ps = connection.prepareStatement(SELECT_OTHER_WINDOW)) {
            ps.setString(1, serviceId);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return false;
                }
                other = rs.getString(1);
                otherPrevious = rs.getString(2);
            }
        }
        if (otherPrevious == null || otherPrevious.equals(ServiceStatus.UNDER_MAINTENANCE.wire())) {
            setPrevious(connection, other, serviceId, previous);
        }
        return true;
    }

    private static void setPrevious(Connection connection, String id, String serviceId, ServiceStatus status)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SET_PREVIOUS)) {
            ps.setString(1, status.wire());
            ps.setString(2, id);
            ps.setString(3, serviceId);
            ps.executeUpdate();
        }
    }

    private static Map<String, Optional<ServiceStatus>> previousStatuses(Connection connection, String id)
            throws SQLException {
        Map<String, Optional<ServiceStatus>> previous = new TreeMap<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_SERVICES)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    previous.put(
                            rs.getString("service_id"),
                            Optional.ofNullable(rs.getString("previous_status")).flatMap(ServiceStatus::fromWire));
                }
            }
        }
        return previous;
    }

    private static Optional<Maintenance> load(Connection connection, String sql, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, id);
            List<Row> rows = rows(ps);
            return rows.isEmpty() ? Optional.empty() : Optional.of(withServices(connection, rows.getFirst()));
        }
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

    private static List<Row> rows(PreparedStatement ps) throws SQLException {
        List<Row> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(new Row(
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
                        Rows.optionalInstant(rs, "completed_at")));
            }
        }
        return rows;
    }

    private static Maintenance withServices(Connection connection, Row row) throws SQLException {
        SortedSet<String> serviceIds =
                new TreeSet<>(previousStatuses(connection, row.id()).keySet());
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
