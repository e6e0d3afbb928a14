package dev.pulseledger.status.services;

import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/** SQL for the provider's services. */
public final class ServiceStore {
    /** Enough for any status page; a limit so that a listing stays one cheap response. */
    public static final int MAX_SERVICES = 1000;

    private static final String COLUMNS =
            "id, name, description, status, spotlighted, position, public, updated_at, group_id";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM services WHERE id = ?";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM services ORDER BY id";
    private static final String COUNT = "SELECT COUNT(*) FROM services";
    private static final String INSERT = "INSERT INTO services (" + COLUMNS
            + ", created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";
    private static final String UPDATE_STATUS = "UPDATE services SET status = ?, updated_at = ? WHERE id = ?";
    private static final String INSERT_CHANGE = "INSERT INTO status_changes"
            + " (service_id, from_status, to_status, source_type, source_id, changed_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String UPDATE =
            "UPDATE services SET name = ?, description = ?, status = ?, spotlighted = ?, position = ?,"
                    + " public = ?, updated_at = ?, group_id = ? WHERE id = ?";
    private static final String DELETE = "DELETE FROM services WHERE id = ?";

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
            Optional<Service> current = findForUpdate(connection, service.id());
            if (current.isEmpty()) {
                if (count(connection) >= MAX_SERVICES) {
                    return Write.LIMIT_REACHED;
                }
                if (insert(connection, service)) {
                    recordHistory(
                            connection,
                            service.id(),
                            null,
                            service.status(),
                            StatusSource.OPERATOR,
                            service.updatedAt());
                    return Write.CREATED;
                }
                current = findForUpdate(connection, service.id());
            }
            update(connection, service);
            recordStatusChange(connection, current.orElseThrow(), service);
            return Write.REPLACED;
        });
    }

    private static boolean insert(Connection connection, Service service) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
            ps.setString(1, service.id());
            ps.setString(2, service.name());
            ps.setString(3, service.description());
            ps.setString(4, service.status().wire());
            ps.setBoolean(5, service.spotlighted());
            ps.setInt(6, service.position());
            ps.setBoolean(7, service.isPublic());
            ps.setLong(8, service.updatedAt().toEpochMilli());
            ps.setString(9, service.groupId().orElse(null));
            ps.setLong(10, service.updatedAt().toEpochMilli());
            return ps.executeUpdate() == 1;
        }
    }

    /**
     * Reads the service, lets {@code change} derive the new version, and writes it with its status
     * change event if any, all under one transaction; empty when there is no such service.
     */
    public Optional<Service> update(String id, UnaryOperator<Service> change) {
        return database.inTransaction(connection -> {
            Optional<Service> current = findForUpdate(connection, id);
            if (current.isEmpty()) {
                return Optional.empty();
            }
            Service changed = change.apply(current.get());
            update(connection, changed);
            recordStatusChange(connection, current.get(), changed);
            return Optional.of(changed);
        });
    }

    /**
     * Records an operator's change in the history and appends service.status_changed when, and only
     * when, the status really changed. The row was read under lock, so two concurrent writes of one
     * new status yield one event, not two.
     */
    private void recordStatusChange(Connection connection, Service before, Service after) throws SQLException {
        if (before.status() != after.status()) {
            recordHistory(
                    connection, after.id(), before.status(), after.status(), StatusSource.OPERATOR, after.updatedAt());
            outbox.append(connection, List.of(statusChanged(before, after)), after.updatedAt());
        }
    }

    /**
     * Sets the status of a service already locked by {@link #findForUpdate} on the caller's open
     * transaction, with its history row; the change's event, when the status really changed, is
     * returned for the caller to append last (the outbox lock must be the last one taken).
     */
    public Optional<NewEvent> changeStatus(
            Connection connection, Service current, ServiceStatus status, StatusSource source, Instant at)
            throws SQLException {
        if (current.status() == status) {
            return Optional.empty();
        }
        try (PreparedStatement ps = connection.prepareStatement(UPDATE_STATUS)) {
            ps.setString(1, status.wire());
            ps.setLong(2, at.toEpochMilli());
            ps.setString(3, current.id());
            ps.executeUpdate();
        }
        recordHistory(connection, current.id(), current.status(), status, source, at);
        Service after = current.withStatus(status, at);
        return Optional.of(statusChanged(current, after));
    }

    private static NewEvent statusChanged(Service before, Service after) {
        return NewEvent.serviceStatusChanged(
                after.id(), after.name(), before.status().wire(), after.status().wire(), after.isPublic());
    }

    private static void recordHistory(
            Connection connection,
            String serviceId,
            @Nullable ServiceStatus from,
            ServiceStatus to,
            StatusSource source,
            Instant at)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(INSERT_CHANGE)) {
            ps.setString(1, serviceId);
            ps.setString(2, from == null ? null : from.wire());
            ps.setString(3, to.wire());
            ps.setString(4, source.kind().wire());
            ps.setString(5, source.id().orElse(null));
            ps.setLong(6, at.toEpochMilli());
            ps.executeUpdate();
        }
    }

    /** Reads the service and locks its row until the transaction ends. */
    public Optional<Service> findForUpdate(Connection connection, String id) throws SQLException {
        return find(connection, selectForUpdate, id);
    }

    private static boolean update(Connection connection, Service service) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(UPDATE)) {
            ps.setString(1, service.name());
            ps.setString(2, service.description());
            ps.setString(3, service.status().wire());
            ps.setBoolean(4, service.spotlighted());
            ps.setInt(5, service.position());
            ps.setBoolean(6, service.isPublic());
            ps.setLong(7, service.updatedAt().toEpochMilli());
            ps.setString(8, service.groupId().orElse(null));
            ps.setString(9, service.id());
            return ps.executeUpdate() == 1;
        }
    }

    private static int count(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(COUNT);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public Optional<Service> find(String id) {
        return database.read(connection -> find(connection, SELECT_ONE, id));
    }

    private static Optional<Service> find(Connection connection, String sql, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(service(rs)) : Optional.empty();
            }
        }
    }

    /** Every service, public or not, ordered by id. */
    public List<Service> all() {
        return database.readMayLag(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ALL)) {
                ps.setMaxRows(MAX_SERVICES);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Service> services = new ArrayList<>();
                    while (rs.next()) {
                        services.add(service(rs));
                    }
                    return services;
                }
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
