package dev.pulseledger.status.incidents;

import dev.pulseledger.events.EventType;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
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
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * SQL for incidents and their timelines. An update and the service statuses it names are written in
 * one transaction, with their history rows and events, so the page never shows one without the other.
 */
public final class IncidentStore {
    /** Updates one incident may have: enough for a long outage, bounded so one incident stays one response. */
    public static final int MAX_UPDATES = 100;

    /** Active incidents the feed lists at most, newest first. */
    public static final int MAX_ACTIVE = 50;

    private static final String COLUMNS = "seq, id, title, impact, status, created_at, updated_at, resolved_at";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM incidents WHERE id = ?";
    private static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM incidents WHERE seq < ? ORDER BY seq DESC LIMIT ?";

    /** Drafts (CONTRACT §16) are for operators only until published. */
    private static final String NOT_DRAFT = "NOT EXISTS (SELECT 1 FROM incident_drafts d WHERE d.incident_id = i.id)";

    /** Incidents callers see: not drafts, and naming no service or at least one public service. */
    private static final String SELECT_PUBLIC_PAGE = "SELECT " + COLUMNS + " FROM incidents i WHERE seq < ? AND "
            + NOT_DRAFT + " AND ("
            + "NOT EXISTS (SELECT 1 FROM incident_update_services s WHERE s.incident_id = i.id)"
            + " OR EXISTS (SELECT 1 FROM incident_update_services s JOIN services v ON v.id = s.service_id"
            + " WHERE s.incident_id = i.id AND v.public)) ORDER BY seq DESC LIMIT ?";

    private static final String SELECT_ACTIVE = "SELECT " + COLUMNS
            + " FROM incidents i WHERE status <> 'resolved' AND " + NOT_DRAFT + " ORDER BY seq DESC LIMIT ?";
    private static final String INSERT_DRAFT = "INSERT INTO incident_drafts (incident_id) VALUES (?)";
    private static final String DELETE_DRAFT = "DELETE FROM incident_drafts WHERE incident_id = ?";
    private static final String IS_DRAFT = "SELECT 1 FROM incident_drafts WHERE incident_id = ?";
    private static final String SELECT_DRAFTS = "SELECT incident_id FROM incident_drafts";
    private static final int MAX_DRAFTS_LISTED = 1000;
    private static final String INSERT = "INSERT INTO incidents (id, title, impact, status, created_at, updated_at,"
            + " resolved_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String UPDATE_STATE =
            "UPDATE incidents SET status = ?, updated_at = ?, resolved_at = ? WHERE id = ?";
    private static final String UPDATE_TEXT = "UPDATE incidents SET title = ?, impact = ?, updated_at = ? WHERE id = ?";
    private static final String DELETE = "DELETE FROM incidents WHERE id = ?";
    private static final String INSERT_UPDATE =
            "INSERT INTO incident_updates (id, incident_id, status, message," + " created_at) VALUES (?, ?, ?, ?, ?)";
    private static final String INSERT_UPDATE_SERVICE = "INSERT INTO incident_update_services (update_id,"
            + " incident_id, service_id, status) VALUES (?, ?, ?, ?)";
    private static final String COUNT_UPDATES = "SELECT COUNT(*) FROM incident_updates WHERE incident_id = ?";
    private static final String SELECT_PUBLIC_SERVICES = "SELECT id FROM services WHERE public";

    /** What a new incident or update says. */
    public record Change(IncidentStatus status, String message, SortedMap<String, ServiceStatus> services, Instant at) {
        public Change {
            services = Collections.unmodifiableSortedMap(new TreeMap<>(services));
        }
    }

    private final Database database;
    private final ServiceStore services;
    private final Outbox outbox;
    private final NoticeSink notices;
    private final String selectForUpdate;

    public IncidentStore(Database database, ServiceStore services, Outbox outbox, NoticeSink notices) {
        this.database = database;
        this.services = services;
        this.outbox = outbox;
        this.notices = notices;
        this.selectForUpdate = SELECT_ONE + database.dialect().lockClause();
    }

    /** Opens an incident with its first update, setting the named services' statuses in the same transaction. */
    public IncidentWrite create(String title, IncidentImpact impact, Change first) {
        return create(title, impact, first, false);
    }

    /**
     * Opens a draft: an incident only operators see (its services still take their statuses) until
     * it is published; no {@code incident.created} is sent before then.
     */
    public IncidentWrite createDraft(String title, IncidentImpact impact, Change first) {
        return create(title, impact, first, true);
    }

    /** As {@link #createDraft(String, IncidentImpact, Change)}, on the caller's transaction (a heartbeat's miss). */
    public IncidentWrite createDraft(Connection connection, String title, IncidentImpact impact, Change first)
            throws SQLException {
        return create(connection, title, impact, first, true);
    }

    /** Publishes a draft: callers see it from now on, and {@code incident.created} is sent. */
    public Publish publish(String incidentId, Instant at) {
        return database.inTransaction(connection -> {
            Optional<Incident> current = load(connection, selectForUpdate, incidentId);
            if (current.isEmpty()) {
                return Publish.NOT_FOUND;
            }
            try (PreparedStatement ps = connection.prepareStatement(DELETE_DRAFT)) {
                ps.setString(1, incidentId);
                if (ps.executeUpdate() == 0) {
                    return Publish.NOT_A_DRAFT;
                }
            }
            outbox.append(connection, List.of(event(connection, current.get(), true)), at);
            return Publish.PUBLISHED;
        });
    }

    /** Outcome of publishing a draft. */
    public enum Publish {
        PUBLISHED,
        NOT_A_DRAFT,
        NOT_FOUND
    }

    /** The ids of the drafts, for operators' listings. */
    public Set<String> draftIds() {
        return database.read(connection -> {
            Set<String> ids = new HashSet<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_DRAFTS)) {
                ps.setMaxRows(MAX_DRAFTS_LISTED);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
            }
            return ids;
        });
    }

    private IncidentWrite create(String title, IncidentImpact impact, Change first, boolean draft) {
        return database.inTransaction(connection -> create(connection, title, impact, first, draft));
    }

    private IncidentWrite create(
            Connection connection, String title, IncidentImpact impact, Change first, boolean draft)
            throws SQLException {
        Map<String, Service> locked = new HashMap<>();
        List<String> unknown = lockServices(connection, first.services().keySet(), locked);
        if (!unknown.isEmpty()) {
            return new IncidentWrite.UnknownServices(unknown);
        }
        String id = Ids.incident();
        try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
            ps.setString(1, id);
            ps.setString(2, title);
            ps.setString(3, impact.wire());
            ps.setString(4, first.status().wire());
            ps.setLong(5, first.at().toEpochMilli());
            ps.setLong(6, first.at().toEpochMilli());
            Rows.setOptionalInstant(ps, 7, resolvedAt(first, Optional.empty()));
            ps.executeUpdate();
        }
        if (draft) {
            try (PreparedStatement ps = connection.prepareStatement(INSERT_DRAFT)) {
                ps.setString(1, id);
                ps.executeUpdate();
            }
        }
        List<NewEvent> events = writeUpdate(connection, id, first, locked);
        Incident incident = load(connection, SELECT_ONE, id).orElseThrow();
        if (!draft) {
            events.add(event(connection, incident, true));
        }
        outbox.append(connection, events, first.at());
        notices.record(connection, StatusNotice.of(EventType.STATUS_INCIDENT_CREATED, incident), first.at());
        return new IncidentWrite.Written(incident);
    }

    /** Adds an update to the timeline; the incident takes its status. */
    public IncidentWrite addUpdate(String incidentId, Change change) {
        return database.inTransaction(connection -> addUpdate(connection, incidentId, change));
    }

    /** As {@link #addUpdate(String, Change)}, on the caller's transaction (beats that return). */
    public IncidentWrite addUpdate(Connection connection, String incidentId, Change change) throws SQLException {
        Optional<Incident> current = load(connection, selectForUpdate, incidentId);
        if (current.isEmpty()) {
            return new IncidentWrite.NotFound();
        }
        if (countUpdates(connection, incidentId) >= MAX_UPDATES) {
            return new IncidentWrite.TooManyUpdates();
        }
        Map<String, Service> locked = new HashMap<>();
        List<String> unknown = lockServices(connection, change.services().keySet(), locked);
        if (!unknown.isEmpty()) {
            return new IncidentWrite.UnknownServices(unknown);
        }
        try (PreparedStatement ps = connection.prepareStatement(UPDATE_STATE)) {
            ps.setString(1, change.status().wire());
            ps.setLong(2, change.at().toEpochMilli());
            Rows.setOptionalInstant(ps, 3, resolvedAt(change, current.get().resolvedAt()));
            ps.setString(4, incidentId);
            ps.executeUpdate();
        }
        List<NewEvent> events = writeUpdate(connection, incidentId, change, locked);
        Incident incident = load(connection, SELECT_ONE, incidentId).orElseThrow();
        events.add(event(connection, incident, false));
        outbox.append(connection, events, change.at());
        boolean resolvedNow =
                change.status() == IncidentStatus.RESOLVED && current.get().status() != IncidentStatus.RESOLVED;
        EventType noticed = resolvedNow ? EventType.STATUS_INCIDENT_RESOLVED : EventType.STATUS_INCIDENT_UPDATED;
        notices.record(connection, StatusNotice.of(noticed, incident), change.at());
        return new IncidentWrite.Written(incident);
    }

    /** Changes the title and impact; the timeline and the services stay as they are. */
    public Optional<Incident> edit(
            String incidentId, Optional<String> title, Optional<IncidentImpact> impact, Instant at) {
        return database.inTransaction(connection -> {
            Optional<Incident> current = load(connection, selectForUpdate, incidentId);
            if (current.isEmpty()) {
                return Optional.empty();
            }
            try (PreparedStatement ps = connection.prepareStatement(UPDATE_TEXT)) {
                ps.setString(1, title.orElse(current.get().title()));
                ps.setString(2, impact.orElse(current.get().impact()).wire());
                ps.setLong(3, at.toEpochMilli());
                ps.setString(4, incidentId);
                ps.executeUpdate();
            }
            Incident incident = load(connection, SELECT_ONE, incidentId).orElseThrow();
            outbox.append(connection, List.of(event(connection, incident, false)), at);
            return Optional.of(incident);
        });
    }

    /** Removes the incident and its timeline; the services keep their statuses and their history. */
    public boolean delete(String incidentId) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, incidentId);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public Optional<Incident> find(String incidentId) {
        return database.read(connection -> load(connection, SELECT_ONE, incidentId));
    }

    /** Incidents newest first, starting before sequence {@code beforeSeq}; only those callers see when asked. */
    public Page<Incident> page(long beforeSeq, int limit, boolean callersOnly) {
        return database.readMayLag(connection -> {
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(callersOnly ? SELECT_PUBLIC_PAGE : SELECT_PAGE)) {
                ps.setLong(1, beforeSeq);
                ps.setInt(2, limit + 1);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(row(rs));
                    }
                }
            }
            Page<Row> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
            return new Page<>(withTimelines(connection, page.items()), page.nextPosition());
        });
    }

    /** Unresolved incidents, newest first, at most {@link #MAX_ACTIVE}. */
    public List<Incident> active() {
        return database.readMayLag(connection -> {
            List<Row> rows = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ACTIVE)) {
                ps.setInt(1, MAX_ACTIVE);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(row(rs));
                    }
                }
            }
            return withTimelines(connection, rows);
        });
    }

    /** Locks the named services in id order (so concurrent writers never wait on each other in a cycle). */
    private List<String> lockServices(Connection connection, Set<String> ids, Map<String, Service> locked)
            throws SQLException {
        List<String> unknown = new ArrayList<>();
        for (String id : new TreeSet<>(ids)) {
            Optional<Service> service = services.findForUpdate(connection, id);
            if (service.isPresent()) {
                locked.put(id, service.get());
            } else {
                unknown.add(id);
            }
        }
        return unknown;
    }

    private List<NewEvent> writeUpdate(
            Connection connection, String incidentId, Change change, Map<String, Service> locked) throws SQLException {
        String updateId = Ids.incidentUpdate();
        try (PreparedStatement ps = connection.prepareStatement(INSERT_UPDATE)) {
            ps.setString(1, updateId);
            ps.setString(2, incidentId);
            ps.setString(3, change.status().wire());
            ps.setString(4, change.message());
            ps.setLong(5, change.at().toEpochMilli());
            ps.executeUpdate();
        }
        List<NewEvent> events = new ArrayList<>();
        try (PreparedStatement ps = connection.prepareStatement(INSERT_UPDATE_SERVICE)) {
            for (Map.Entry<String, ServiceStatus> entry : change.services().entrySet()) {
                ps.setString(1, updateId);
                ps.setString(2, incidentId);
                ps.setString(3, entry.getKey());
                ps.setString(4, entry.getValue().wire());
                ps.addBatch();
                services.changeStatus(
                                connection,
                                // lockServices found every service of the change, or the change was refused.
                                Objects.requireNonNull(locked.get(entry.getKey()), entry.getKey()),
                                entry.getValue(),
                                StatusSource.incident(incidentId),
                                change.at())
                        .ifPresent(events::add);
            }
            ps.executeBatch();
        }
        return events;
    }

    private static Optional<Instant> resolvedAt(Change change, Optional<Instant> before) {
        if (change.status() != IncidentStatus.RESOLVED) {
            return Optional.empty();
        }
        return before.isPresent() ? before : Optional.of(change.at());
    }

    private static int countUpdates(Connection connection, String incidentId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(COUNT_UPDATES)) {
            ps.setString(1, incidentId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** The incident's event, carrying what callers may see of it. */
    private static boolean isDraft(Connection connection, String incidentId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(IS_DRAFT)) {
            ps.setString(1, incidentId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static NewEvent event(Connection connection, Incident incident, boolean created) throws SQLException {
        Set<String> publicServices = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement(SELECT_PUBLIC_SERVICES);
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                publicServices.add(rs.getString(1));
            }
        }
        boolean visible = incident.isVisibleWith(publicServices) && !isDraft(connection, incident.id());
        StatusJson.IncidentBody json = StatusJson.incident(incident.restrictedTo(publicServices));
        return created ? NewEvent.incidentCreated(json, visible) : NewEvent.incidentUpdated(json, visible);
    }

    private Optional<Incident> load(Connection connection, String sql, String incidentId) throws SQLException {
        Optional<Row> row;
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, incidentId);
            try (ResultSet rs = ps.executeQuery()) {
                row = rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
        return row.isEmpty()
                ? Optional.empty()
                : Optional.of(withTimelines(connection, List.of(row.get())).getFirst());
    }

    /** An incident's own columns, before its timeline is read. */
    private record Row(
            long seq,
            String id,
            String title,
            IncidentImpact impact,
            IncidentStatus status,
            Instant createdAt,
            Instant updatedAt,
            Optional<Instant> resolvedAt) {}

    private static Row row(ResultSet rs) throws SQLException {
        return new Row(
                rs.getLong("seq"),
                rs.getString("id"),
                rs.getString("title"),
                IncidentImpact.fromWire(rs.getString("impact")).orElseThrow(),
                IncidentStatus.fromWire(rs.getString("status")).orElseThrow(),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "updated_at"),
                Rows.optionalInstant(rs, "resolved_at"));
    }

    /** Reads the timelines of {@code rows} in two queries, whatever their number. */
    private static List<Incident> withTimelines(Connection connection, List<Row> rows) throws SQLException {
        if (rows.isEmpty()) {
            return List.of();
        }
        // One placeholder per incident of the page (at most a page size): only the count comes from here.
        String placeholders = String.join(", ", Collections.nCopies(rows.size(), "?"));
        Map<String, SortedMap<String, ServiceStatus>> servicesByUpdate = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT update_id, service_id, status FROM"
                + " incident_update_services WHERE incident_id IN (" + placeholders + ")")) {
            bindIds(ps, rows);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    servicesByUpdate
                            .computeIfAbsent(rs.getString("update_id"), k -> new TreeMap<>())
                            .put(
                                    rs.getString("service_id"),
                                    ServiceStatus.fromWire(rs.getString("status"))
                                            .orElse(ServiceStatus.UNKNOWN));
                }
            }
        }
        Map<String, List<IncidentUpdate>> updatesByIncident = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement("SELECT id, incident_id, status, message, created_at"
                + " FROM incident_updates WHERE incident_id IN (" + placeholders + ") ORDER BY seq DESC")) {
            bindIds(ps, rows);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String updateId = rs.getString("id");
                    updatesByIncident
                            .computeIfAbsent(rs.getString("incident_id"), k -> new ArrayList<>())
                            .add(new IncidentUpdate(
                                    updateId,
                                    IncidentStatus.fromWire(rs.getString("status"))
                                            .orElseThrow(),
                                    rs.getString("message"),
                                    servicesByUpdate.getOrDefault(updateId, new TreeMap<>()),
                                    Rows.instant(rs, "created_at")));
                }
            }
        }
        return rows.stream()
                .map(row -> new Incident(
                        row.id(),
                        row.title(),
                        row.impact(),
                        row.status(),
                        row.createdAt(),
                        row.updatedAt(),
                        row.resolvedAt(),
                        updatesByIncident.getOrDefault(row.id(), List.of())))
                .toList();
    }

    private static void bindIds(PreparedStatement ps, List<Row> rows) throws SQLException {
        for (int i = 0; i < rows.size(); i++) {
            ps.setString(i + 1, rows.get(i).id());
        }
    }
}
