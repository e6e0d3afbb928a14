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
import dev.pulseledger.store.Sql;
import java.sql.Connection;
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
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;
import org.jspecify.annotations.Nullable;

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
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM incidents WHERE id = :id";
    private static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM incidents WHERE seq < :before_seq ORDER BY seq DESC LIMIT :limit";

    /** Drafts (CONTRACT §16) are for operators only until published. */
    private static final String NOT_DRAFT = "NOT EXISTS (SELECT 1 FROM incident_drafts d WHERE d.incident_id = i.id)";

    /** Incidents callers see: not drafts, and naming no service or at least one public service. */
    private static final String SELECT_PUBLIC_PAGE =
            "SELECT " + COLUMNS + " FROM incidents i WHERE seq < :before_seq AND "
                    + NOT_DRAFT + " AND ("
                    + "NOT EXISTS (SELECT 1 FROM incident_update_services s WHERE s.incident_id = i.id)"
                    + " OR EXISTS (SELECT 1 FROM incident_update_services s JOIN services v ON v.id = s.service_id"
                    + " WHERE s.incident_id = i.id AND v.public)) ORDER BY seq DESC LIMIT :limit";

    private static final String SELECT_ACTIVE = "SELECT " + COLUMNS
            + " FROM incidents i WHERE status <> 'resolved' AND " + NOT_DRAFT + " ORDER BY seq DESC LIMIT :limit";
    private static final String INSERT_DRAFT = "INSERT INTO incident_drafts (incident_id) VALUES (:incident_id)";
    private static final String DELETE_DRAFT = "DELETE FROM incident_drafts WHERE incident_id = :incident_id";
    private static final String IS_DRAFT = "SELECT 1 FROM incident_drafts WHERE incident_id = :incident_id";
    private static final String SELECT_DRAFTS = "SELECT incident_id FROM incident_drafts";
    private static final int MAX_DRAFTS_LISTED = 1000;
    private static final String INSERT = "INSERT INTO incidents (id, title, impact, status, created_at, updated_at,"
            + " resolved_at) VALUES (:id, :title, :impact, :status, :at, :at, :resolved_at)";
    private static final String UPDATE_STATE = "UPDATE incidents SET status = :status, updated_at = :updated_at,"
            + " resolved_at = :resolved_at WHERE id = :id";
    private static final String UPDATE_TEXT =
            "UPDATE incidents SET title = :title, impact = :impact, updated_at = :updated_at WHERE id = :id";
    private static final String DELETE = "DELETE FROM incidents WHERE id = :id";
    private static final String INSERT_UPDATE = "INSERT INTO incident_updates (id, incident_id, status, message,"
            + " created_at) VALUES (:id, :incident_id, :status, :message, :created_at)";
    private static final String INSERT_UPDATE_SERVICE = "INSERT INTO incident_update_services (update_id,"
            + " incident_id, service_id, status) VALUES (:update_id, :incident_id, :service_id, :status)";
    private static final String COUNT_UPDATES =
            "SELECT COUNT(*) FROM incident_updates WHERE incident_id = :incident_id";
    // <ids>: one placeholder per incident of a page (at most a page size), bound as a list.
    private static final String SELECT_UPDATE_SERVICES =
            "SELECT update_id, service_id, status FROM incident_update_services WHERE incident_id IN (<ids>)";
    private static final String SELECT_UPDATES = "SELECT id, incident_id, status, message, created_at"
            + " FROM incident_updates WHERE incident_id IN (<ids>) ORDER BY seq DESC";
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
            try (Handle sql = Sql.on(connection)) {
                Optional<Incident> current = load(sql, selectForUpdate, incidentId);
                if (current.isEmpty()) {
                    return Publish.NOT_FOUND;
                }
                if (sql.createUpdate(DELETE_DRAFT)
                                .bind("incident_id", incidentId)
                                .execute()
                        == 0) {
                    return Publish.NOT_A_DRAFT;
                }
                outbox.append(connection, List.of(event(sql, current.get(), true)), at);
                return Publish.PUBLISHED;
            }
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
            try (Handle sql = Sql.on(connection)) {
                return new HashSet<>(sql.createQuery(SELECT_DRAFTS)
                        .setMaxRows(MAX_DRAFTS_LISTED)
                        .mapTo(String.class)
                        .list());
            }
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
        try (Handle sql = Sql.on(connection)) {
            sql.createUpdate(INSERT)
                    .bind("id", id)
                    .bind("title", title)
                    .bind("impact", impact.wire())
                    .bind("status", first.status().wire())
                    .bind("at", first.at().toEpochMilli())
                    .bind("resolved_at", millis(resolvedAt(first, Optional.empty())))
                    .execute();
            if (draft) {
                sql.createUpdate(INSERT_DRAFT).bind("incident_id", id).execute();
            }
            List<NewEvent> events = writeUpdate(connection, sql, id, first, locked);
            Incident incident = load(sql, SELECT_ONE, id).orElseThrow();
            if (!draft) {
                events.add(event(sql, incident, true));
            }
            outbox.append(connection, events, first.at());
            notices.record(connection, StatusNotice.of(EventType.STATUS_INCIDENT_CREATED, incident), first.at());
            return new IncidentWrite.Written(incident);
        }
    }

    /** Adds an update to the timeline; the incident takes its status. */
    public IncidentWrite addUpdate(String incidentId, Change change) {
        return database.inTransaction(connection -> addUpdate(connection, incidentId, change));
    }

    /** As {@link #addUpdate(String, Change)}, on the caller's transaction (beats that return). */
    public IncidentWrite addUpdate(Connection connection, String incidentId, Change change) throws SQLException {
        try (Handle sql = Sql.on(connection)) {
            return addUpdate(connection, sql, incidentId, change);
        }
    }

    private IncidentWrite addUpdate(Connection connection, Handle sql, String incidentId, Change change)
            throws SQLException {
        Optional<Incident> current = load(sql, selectForUpdate, incidentId);
        if (current.isEmpty()) {
            return new IncidentWrite.NotFound();
        }
        if (sql.createQuery(COUNT_UPDATES)
                        .bind("incident_id", incidentId)
                        .mapTo(Integer.class)
                        .one()
                >= MAX_UPDATES) {
            return new IncidentWrite.TooManyUpdates();
        }
        Map<String, Service> locked = new HashMap<>();
        List<String> unknown = lockServices(connection, change.services().keySet(), locked);
        if (!unknown.isEmpty()) {
            return new IncidentWrite.UnknownServices(unknown);
        }
        sql.createUpdate(UPDATE_STATE)
                .bind("status", change.status().wire())
                .bind("updated_at", change.at().toEpochMilli())
                .bind("resolved_at", millis(resolvedAt(change, current.get().resolvedAt())))
                .bind("id", incidentId)
                .execute();
        List<NewEvent> events = writeUpdate(connection, sql, incidentId, change, locked);
        Incident incident = load(sql, SELECT_ONE, incidentId).orElseThrow();
        events.add(event(sql, incident, false));
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
            try (Handle sql = Sql.on(connection)) {
                Optional<Incident> current = load(sql, selectForUpdate, incidentId);
                if (current.isEmpty()) {
                    return Optional.empty();
                }
                sql.createUpdate(UPDATE_TEXT)
                        .bind("title", title.orElse(current.get().title()))
                        .bind("impact", impact.orElse(current.get().impact()).wire())
                        .bind("updated_at", at.toEpochMilli())
                        .bind("id", incidentId)
                        .execute();
                Incident incident = load(sql, SELECT_ONE, incidentId).orElseThrow();
                outbox.append(connection, List.of(event(sql, incident, false)), at);
                return Optional.of(incident);
            }
        });
    }

    /** Removes the incident and its timeline; the services keep their statuses and their history. */
    public boolean delete(String incidentId) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE).bind("id", incidentId).execute() == 1;
            }
        });
    }

    public Optional<Incident> find(String incidentId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return load(sql, SELECT_ONE, incidentId);
            }
        });
    }

    /** Incidents newest first, starting before sequence {@code beforeSeq}; only those callers see when asked. */
    public Page<Incident> page(long beforeSeq, int limit, boolean callersOnly) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Row> rows = sql.createQuery(callersOnly ? SELECT_PUBLIC_PAGE : SELECT_PAGE)
                        .bind("before_seq", beforeSeq)
                        .bind("limit", limit + 1)
                        .map((rs, ctx) -> row(rs))
                        .list();
                Page<Row> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(withTimelines(sql, page.items()), page.nextPosition());
            }
        });
    }

    /** Unresolved incidents, newest first, at most {@link #MAX_ACTIVE}. */
    public List<Incident> active() {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Row> rows = sql.createQuery(SELECT_ACTIVE)
                        .bind("limit", MAX_ACTIVE)
                        .map((rs, ctx) -> row(rs))
                        .list();
                return withTimelines(sql, rows);
            }
        });
    }

    /** Locks the named services in id order (so concurrent writers never wait on each other in a cycle). */
    private List<String> lockServices(Connection connection, Set<String> ids, Map<String, Service> locked) {
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
            Connection connection, Handle sql, String incidentId, Change change, Map<String, Service> locked) {
        String updateId = Ids.incidentUpdate();
        sql.createUpdate(INSERT_UPDATE)
                .bind("id", updateId)
                .bind("incident_id", incidentId)
                .bind("status", change.status().wire())
                .bind("message", change.message())
                .bind("created_at", change.at().toEpochMilli())
                .execute();
        List<NewEvent> events = new ArrayList<>();
        PreparedBatch batch = sql.prepareBatch(INSERT_UPDATE_SERVICE);
        for (Map.Entry<String, ServiceStatus> entry : change.services().entrySet()) {
            batch.bind("update_id", updateId)
                    .bind("incident_id", incidentId)
                    .bind("service_id", entry.getKey())
                    .bind("status", entry.getValue().wire())
                    .add();
            services.changeStatus(
                            connection,
                            // lockServices found every service of the change, or the change was refused.
                            Objects.requireNonNull(locked.get(entry.getKey()), entry.getKey()),
                            entry.getValue(),
                            StatusSource.incident(incidentId),
                            change.at())
                    .ifPresent(events::add);
        }
        if (batch.size() > 0) {
            batch.execute();
        }
        return events;
    }

    private static Optional<Instant> resolvedAt(Change change, Optional<Instant> before) {
        if (change.status() != IncidentStatus.RESOLVED) {
            return Optional.empty();
        }
        return before.isPresent() ? before : Optional.of(change.at());
    }

    /** An instant as the epoch millis the tables keep; null when absent. */
    private static @Nullable Long millis(Optional<Instant> instant) {
        return instant.map(Instant::toEpochMilli).orElse(null);
    }

    private static boolean isDraft(Handle sql, String incidentId) {
        return sql.createQuery(IS_DRAFT)
                .bind("incident_id", incidentId)
                .mapTo(Integer.class)
                .findOne()
                .isPresent();
    }

    /** The incident's event, carrying what callers may see of it. */
    private static NewEvent event(Handle sql, Incident incident, boolean created) {
        Set<String> publicServices = new HashSet<>(
                sql.createQuery(SELECT_PUBLIC_SERVICES).mapTo(String.class).list());
        boolean visible = incident.isVisibleWith(publicServices) && !isDraft(sql, incident.id());
        StatusJson.IncidentBody json = StatusJson.incident(incident.restrictedTo(publicServices));
        return created ? NewEvent.incidentCreated(json, visible) : NewEvent.incidentUpdated(json, visible);
    }

    private static Optional<Incident> load(Handle sql, String select, String incidentId) {
        return sql.createQuery(select)
                .bind("id", incidentId)
                .map((rs, ctx) -> row(rs))
                .findOne()
                .map(row -> withTimelines(sql, List.of(row)).getFirst());
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
    private static List<Incident> withTimelines(Handle sql, List<Row> rows) {
        if (rows.isEmpty()) {
            return List.of();
        }
        List<String> ids = rows.stream().map(Row::id).toList();
        Map<String, SortedMap<String, ServiceStatus>> servicesByUpdate = new HashMap<>();
        sql.createQuery(SELECT_UPDATE_SERVICES)
                .bindList("ids", ids)
                .map((rs, ctx) -> new UpdateService(
                        rs.getString("update_id"),
                        rs.getString("service_id"),
                        ServiceStatus.fromWire(rs.getString("status")).orElse(ServiceStatus.UNKNOWN)))
                .forEach(service -> servicesByUpdate
                        .computeIfAbsent(service.updateId(), k -> new TreeMap<>())
                        .put(service.serviceId(), service.status()));
        Map<String, List<IncidentUpdate>> updatesByIncident = new HashMap<>();
        sql.createQuery(SELECT_UPDATES)
                .bindList("ids", ids)
                .map((rs, ctx) -> {
                    String updateId = rs.getString("id");
                    return Map.entry(
                            rs.getString("incident_id"),
                            new IncidentUpdate(
                                    updateId,
                                    IncidentStatus.fromWire(rs.getString("status"))
                                            .orElseThrow(),
                                    rs.getString("message"),
                                    servicesByUpdate.getOrDefault(updateId, new TreeMap<>()),
                                    Rows.instant(rs, "created_at")));
                })
                .forEach(update -> updatesByIncident
                        .computeIfAbsent(update.getKey(), k -> new ArrayList<>())
                        .add(update.getValue()));
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

    /** One service's status named by an update. */
    private record UpdateService(String updateId, String serviceId, ServiceStatus status) {}
}
