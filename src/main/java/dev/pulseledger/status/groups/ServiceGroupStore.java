package dev.pulseledger.status.groups;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for service groups. Deleting one leaves its services ungrouped (the foreign key sets them null). */
public final class ServiceGroupStore {
    /** Far more than a page can show readably; a bound so a listing stays one cheap response. */
    public static final int MAX_GROUPS = 200;

    private static final String COLUMNS = "id, name, position, created_at, updated_at";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM service_groups WHERE id = ?";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM service_groups ORDER BY position, id";
    private static final String COUNT = "SELECT COUNT(*) FROM service_groups";
    private static final String SERVICE_EXISTS = "SELECT 1 FROM services WHERE id = ?";
    private static final String INSERT =
            "INSERT INTO service_groups (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";
    private static final String UPDATE =
            "UPDATE service_groups SET name = ?, position = ?, updated_at = ? WHERE id = ?";
    private static final String DELETE = "DELETE FROM service_groups WHERE id = ?";

    /** Outcome of creating a group. */
    public enum Create {
        CREATED,
        ID_TAKEN,
        LIMIT_REACHED
    }

    private final Database database;

    public ServiceGroupStore(Database database) {
        this.database = database;
    }

    /**
     * Creates the group unless its id is a group's or a service's already: both are components of
     * the Statuspage documents, where an id names one thing.
     */
    public Create create(ServiceGroup group) {
        return database.inTransaction(connection -> {
            if (exists(connection, SERVICE_EXISTS, group.id())) {
                return Create.ID_TAKEN;
            }
            if (count(connection) >= MAX_GROUPS) {
                return Create.LIMIT_REACHED;
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, group.id());
                ps.setString(2, group.name());
                ps.setInt(3, group.position());
                ps.setLong(4, group.createdAt().toEpochMilli());
                ps.setLong(5, group.updatedAt().toEpochMilli());
                return ps.executeUpdate() == 1 ? Create.CREATED : Create.ID_TAKEN;
            }
        });
    }

    /** Writes the group's name and position; false when there is no such group. */
    public boolean update(ServiceGroup group) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(UPDATE)) {
                ps.setString(1, group.name());
                ps.setInt(2, group.position());
                ps.setLong(3, group.updatedAt().toEpochMilli());
                ps.setString(4, group.id());
                return ps.executeUpdate() == 1;
            }
        });
    }

    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE)) {
                ps.setString(1, id);
                return ps.executeUpdate() == 1;
            }
        });
    }

    public Optional<ServiceGroup> find(String id) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(group(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Every group in its order. */
    public List<ServiceGroup> all() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ALL)) {
                ps.setMaxRows(MAX_GROUPS);
                try (ResultSet rs = ps.executeQuery()) {
                    List<ServiceGroup> groups = new ArrayList<>();
                    while (rs.next()) {
                        groups.add(group(rs));
                    }
                    return groups;
                }
            }
        });
    }

    private static boolean exists(Connection connection, String sql, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static int count(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(COUNT);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static ServiceGroup group(ResultSet rs) throws SQLException {
        return new ServiceGroup(
                rs.getString("id"),
                rs.getString("name"),
                rs.getInt("position"),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "updated_at"));
    }
}
