package dev.pulseledger.status.services;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Update;
import org.jspecify.annotations.Nullable;

/** SQL for the provider's services. */
public final class ServiceStore {
    /** Enough for any status page; a limit so that a listing stays one cheap response. */
    public static final int MAX_SERVICES = 1000;

    private static final String COLUMNS =
            "id, name, description, status, spotlighted, position, public, updated_at, group_id";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM services WHERE id = :id";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM services ORDER BY id";
    private static final String COUNT = "SELECT COUNT(*) FROM services";
    private static final String INSERT = "INSERT INTO services (" + COLUMNS + ", created_at)"
            + " VALUES (:id, :name, :description, :status, :spotlighted, :position, :public, :updated_at, :group_id,"
            + " :updated_at) ON CONFLICT (id) DO NOTHING";
    private static final String UPDATE_STATUS =
            "UPDATE services SET status = :status, updated_at = :updated_at WHERE id = :id";
    private static final String INSERT_CHANGE = "INSERT INTO status_changes"
            + " (service_id, from_status, to_status, source_type, source_id, changed_at)"
            + " VALUES (:service_id, :from_status, :to_status, :source_type, :source_id, :changed_at)";
    private static final String UPDATE = "UPDATE services SET name = :name, description = :description,"
            + " status = :status, spotlighted = :spotlighted, position = :position, public = :public,"
            + " updated_at = :updated_at, group_id = :group_id WHERE id = :id";
    private static final String DELETE = "DELETE FROM services WHERE id = :id";

    private final Database database;
    private final Outbox outbox;
    private final String selectForUpdate;

    public ServiceStore(Database database, Outbox outbox) {
        this.database = database;
        this.outbox = outbox;
        this.selectForUpdate = SELECT_ONE + database.dialect().lockClause();
    }

    /** Outcome of writing a service. */
    public enum Write {
        CREATED,
        REPLACED,
        LIMIT_REACHED
    }

    /**
     * Creates or replaces the service in one transaction, with its status change event if any. When
     * another node creates the same service at the same moment, its row wins the insert and this
     * write replaces it, as if the two had come one after the other.
     */
    public Write put(Service service) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Service> current = find(sql, selectForUpdate, service.id());
                if (current.isEmpty()) {
                    if (sql.createQuery(COUNT).mapTo(Integer.class).one() >= MAX_SERVICES) {
                        return Write.LIMIT_REACHED;
                    }
                    if (bindFields(sql.createUpdate(INSERT), service).execute() == 1) {
                        recordHistory(
                                sql, service.id(), null, service.status(), StatusSource.OPERATOR, service.updatedAt());
                        return Write.CREATED;
                    }
                    current = find(sql, selectForUpdate, service.id());
                }
                bindFields(sql.createUpdate(UPDATE), service).execute();
                recordStatusChange(connection, sql, current.orElseThrow(), service);
                return Write.REPLACED;
            }
        });
    }

    /** Binds every column a service's insert and update share. */
    private static Update bindFields(Update statement, Service service) {
        return statement
                .bind("id", service.id())
                .bind("name", service.name())
                .bind("description", service.description())
                .bind("status", service.status().wire())
                .bind("spotlighted", service.spotlighted())
                .bind("position", service.position())
                .bind("public", service.isPublic())
                .bind("updated_at", service.updatedAt().toEpochMilli())
                .bind("group_id", service.groupId().orElse(null));
    }

    /**
     * Reads the service, lets {@code change} derive the new version, and writes it with its status
     * change event if any, all under one transaction; empty when there is no such service.
     */
    public Optional<Service> update(String id, UnaryOperator<Service> change) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Optional<Service> current = find(sql, selectForUpdate, id);
                if (current.isEmpty()) {
                    return Optional.empty();
                }
                Service changed = change.apply(current.get());
                bindFields(sql.createUpdate(UPDATE), changed).execute();
                recordStatusChange(connection, sql, current.get(), changed);
                return Optional.of(changed);
            }
        });
    }

    /**
     * Records an operator's change in the history and appends service.status_changed when, and only
     * when, the status really changed. The row was read under lock, so two concurrent writes of one
     * new status yield one event, not two.
     */
    private void recordStatusChange(Connection connection, Handle sql, Service before, Service after)
            throws SQLException {
        if (before.status() != after.status()) {
            recordHistory(sql, after.id(), before.status(), after.status(), StatusSource.OPERATOR, after.updatedAt());
            outbox.append(connection, List.of(statusChanged(before, after)), after.updatedAt());
        }
    }

    /**
     * Sets the status of a service already locked by {@link #findForUpdate} on the caller's open
     * transaction, with its history row; the change's event, when the status really changed, is
     * returned for the caller to append last (the outbox lock must be the last one taken).
     */
    public Optional<NewEvent> changeStatus(
            Connection connection, Service current, ServiceStatus status, StatusSource source, Instant at) {
        if (current.status() == status) {
            return Optional.empty();
        }
        try (Handle sql = Sql.on(connection)) {
            sql.createUpdate(UPDATE_STATUS)
                    .bind("status", status.wire())
                    .bind("updated_at", at.toEpochMilli())
                    .bind("id", current.id())
                    .execute();
            recordHistory(sql, current.id(), current.status(), status, source, at);
        }
        Service after = current.withStatus(status, at);
        return Optional.of(statusChanged(current, after));
    }

    private static NewEvent statusChanged(Service before, Service after) {
        return NewEvent.serviceStatusChanged(
                after.id(), after.name(), before.status().wire(), after.status().wire(), after.isPublic());
    }

    private static void recordHistory(
            Handle sql,
            String serviceId,
            @Nullable ServiceStatus from,
            ServiceStatus to,
            StatusSource source,
            Instant at) {
        sql.createUpdate(INSERT_CHANGE)
                .bind("service_id", serviceId)
                .bind("from_status", from == null ? null : from.wire())
                .bind("to_status", to.wire())
                .bind("source_type", source.kind().wire())
                .bind("source_id", source.id().orElse(null))
                .bind("changed_at", at.toEpochMilli())
                .execute();
    }

    /** Reads the service and locks its row until the transaction ends. */
    public Optional<Service> findForUpdate(Connection connection, String id) {
        try (Handle sql = Sql.on(connection)) {
            return find(sql, selectForUpdate, id);
        }
    }

    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE).bind("id", id).execute() == 1;
            }
        });
    }

    public Optional<Service> find(String id) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return find(sql, SELECT_ONE, id);
            }
        });
    }

    private static Optional<Service> find(Handle sql, String select, String id) {
        return sql.createQuery(select)
                .bind("id", id)
                .map((rs, ctx) -> service(rs))
                .findOne();
    }

    /** Every service, public or not, ordered by id. */
    public List<Service> all() {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ALL)
                        .setMaxRows(MAX_SERVICES)
                        .map((rs, ctx) -> service(rs))
                        .list();
            }
        });
    }

    private static Service service(ResultSet rs) throws SQLException {
        return new Service(
                rs.getString("id"),
                rs.getString("name"),
                rs.getString("description"),
                ServiceStatus.fromWire(rs.getString("status")).orElse(ServiceStatus.UNKNOWN),
                rs.getBoolean("spotlighted"),
                rs.getInt("position"),
                rs.getBoolean("public"),
                Rows.instant(rs, "updated_at"),
                Optional.ofNullable(rs.getString("group_id")));
    }
}
