package dev.pulseledger.status.groups;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** SQL for service groups. Deleting one leaves its services ungrouped (the foreign key sets them null). */
public final class ServiceGroupStore {
    /** Far more than a page can show readably; a bound so a listing stays one cheap response. */
    public static final int MAX_GROUPS = 200;

    private static final String COLUMNS = "id, name, position, created_at, updated_at";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM service_groups WHERE id = :id";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM service_groups ORDER BY position, id";
    private static final String COUNT = "SELECT COUNT(*) FROM service_groups";
    private static final String SERVICE_EXISTS = "SELECT 1 FROM services WHERE id = :id";
    private static final String INSERT = "INSERT INTO service_groups (" + COLUMNS
            + ") VALUES (:id, :name, :position, :created_at, :updated_at)" + " ON CONFLICT (id) DO NOTHING";
    private static final String UPDATE =
            "UPDATE service_groups SET name = :name, position = :position, updated_at = :updated_at WHERE id = :id";
    private static final String DELETE = "DELETE FROM service_groups WHERE id = :id";

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
            try (Handle sql = Sql.on(connection)) {
                if (serviceExists(sql, group.id())) {
                    return Create.ID_TAKEN;
                }
                if (sql.createQuery(COUNT).mapTo(Integer.class).one() >= MAX_GROUPS) {
                    return Create.LIMIT_REACHED;
                }
                return insert(sql, group) ? Create.CREATED : Create.ID_TAKEN;
            }
        });
    }

    private static boolean serviceExists(Handle sql, String id) {
        return sql.createQuery(SERVICE_EXISTS)
                .bind("id", id)
                .mapTo(Integer.class)
                .findOne()
                .isPresent();
    }

    private static boolean insert(Handle sql, ServiceGroup group) {
        return sql.createUpdate(INSERT)
                        .bind("id", group.id())
                        .bind("name", group.name())
                        .bind("position", group.position())
                        .bind("created_at", group.createdAt().toEpochMilli())
                        .bind("updated_at", group.updatedAt().toEpochMilli())
                        .execute()
                == 1;
    }

    /** Writes the group's name and position; false when there is no such group. */
    public boolean update(ServiceGroup group) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(UPDATE)
                                .bind("name", group.name())
                                .bind("position", group.position())
                                .bind("updated_at", group.updatedAt().toEpochMilli())
                                .bind("id", group.id())
                                .execute()
                        == 1;
            }
        });
    }

    public boolean delete(String id) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createUpdate(DELETE).bind("id", id).execute() == 1;
            }
        });
    }

    public Optional<ServiceGroup> find(String id) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("id", id)
                        .map((rs, ctx) -> group(rs))
                        .findOne();
            }
        });
    }

    /** Every group in its order. */
    public List<ServiceGroup> all() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ALL)
                        .setMaxRows(MAX_GROUPS)
                        .map((rs, ctx) -> group(rs))
                        .list();
            }
        });
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
