package dev.pulseledger.accounts;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Update;

/** SQL for plans. */
public final class PlanStore {
    private static final String COLUMNS =
            "id, name, description, allowance, period, rollover, rate_limit_per_minute, sla, created_at, updated_at,"
                    + " pools";
    private static final String INSERT = "INSERT INTO plans (" + COLUMNS + ", sla_since)"
            + " VALUES (:id, :name, :description, :allowance, :period, :rollover, :rate_limit_per_minute, :sla,"
            + " :created_at, :updated_at, :pools, :created_at) ON CONFLICT (id) DO NOTHING";
    // An SLA that changes (or appears) counts from now: the periods that ended before are not measured by it.
    private static final String UPDATE = "UPDATE plans SET name = :name, description = :description,"
            + " allowance = :allowance, period = :period, rollover = :rollover,"
            + " rate_limit_per_minute = :rate_limit_per_minute,"
            + " sla_since = CASE WHEN sla = :sla THEN sla_since ELSE :updated_at END,"
            + " sla = :sla, updated_at = :updated_at, pools = :pools WHERE id = :id";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM plans WHERE id = :id";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM plans ORDER BY id";
    private static final String SELECT_SERVICE = "SELECT 1 FROM services WHERE id = :id";
    private static final int MAX_PLANS_LISTED = 1000;

    private final Database database;
    private final AccessChangeLog changes;

    public PlanStore(Database database, AccessChangeLog changes) {
        this.database = database;
        this.changes = changes;
    }

    /** Inserts the plan; false when a plan with its id exists already. */
    public boolean create(Plan plan) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return bindFields(sql.createUpdate(INSERT), plan)
                                .bind("created_at", plan.createdAt().toEpochMilli())
                                .execute()
                        == 1;
            }
        });
    }

    /** Replaces the plan's fields; false when there is no such plan. Accounts get the new terms at their next renewal. */
    public boolean update(Plan plan) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (bindFields(sql.createUpdate(UPDATE), plan).execute() != 1) {
                    return false;
                }
            }
            changes.append(connection, AccessChange.Kind.PLAN, plan.id());
            return true;
        });
    }

    /** Binds every column a plan's insert and update share. */
    private static Update bindFields(Update statement, Plan plan) {
        return statement
                .bind("id", plan.id())
                .bind("name", plan.name())
                .bind("description", plan.description())
                .bind("allowance", plan.allowance())
                .bind("period", plan.period().wire())
                .bind("rollover", plan.rollover())
                .bind("rate_limit_per_minute", plan.rateLimitPerMinute())
                .bind("sla", plan.sla().map(SlaTerms::toText))
                .bind("updated_at", plan.updatedAt().toEpochMilli())
                .bind("pools", Pools.encodePlanPools(plan.pools()));
    }

    public Optional<Plan> find(String id) {
        return database.read(connection -> find(connection, id));
    }

    static Optional<Plan> find(Connection connection, String id) {
        try (Handle sql = Sql.on(connection)) {
            return sql.createQuery(SELECT_ONE)
                    .bind("id", id)
                    .map((rs, ctx) -> plan(rs))
                    .findOne();
        }
    }

    /** Those of {@code serviceIds} that name no service, in their order. */
    public List<String> unknownServices(List<String> serviceIds) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<String> unknown = new ArrayList<>();
                for (String id : serviceIds) {
                    if (sql.createQuery(SELECT_SERVICE)
                            .bind("id", id)
                            .mapTo(Integer.class)
                            .findOne()
                            .isEmpty()) {
                        unknown.add(id);
                    }
                }
                return unknown;
            }
        });
    }

    public List<Plan> list() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ALL)
                        .setMaxRows(MAX_PLANS_LISTED)
                        .map((rs, ctx) -> plan(rs))
                        .list();
            }
        });
    }

    private static Plan plan(ResultSet rs) throws SQLException {
        return new Plan(
                rs.getString("id"),
                rs.getString("name"),
                rs.getString("description"),
                rs.getLong("allowance"),
                PlanPeriod.fromWire(rs.getString("period")).orElseThrow(),
                rs.getLong("rollover"),
                Rows.optionalLong(rs, "rate_limit_per_minute"),
                Optional.ofNullable(rs.getString("sla")).map(SlaTerms::fromText),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "updated_at"),
                Pools.decodePlanPools(rs.getString("pools")));
    }
}
