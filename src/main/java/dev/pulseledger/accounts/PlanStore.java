package dev.pulseledger.accounts;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for plans. */
public final class PlanStore {
    private static final String COLUMNS =
            "id, name, description, allowance, period, rollover, rate_limit_per_minute, sla, created_at, updated_at,"
                    + " pools";
    private static final String INSERT = "INSERT INTO plans (" + COLUMNS
            + ", sla_since) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING";
    // An SLA that changes (or appears) counts from now: the periods that ended before are not measured by it.
    private static final String UPDATE = "UPDATE plans SET name = ?, description = ?, allowance = ?, period = ?,"
            + " rollover = ?, rate_limit_per_minute = ?, sla_since = CASE WHEN sla = ? THEN sla_since ELSE ? END,"
            + " sla = ?, updated_at = ?, pools = ? WHERE id = ?";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM plans WHERE id = ?";
    private static final String SELECT_ALL = "SELECT " + COLUMNS + " FROM plans ORDER BY id";
    private static final String SELECT_SERVICE = "SELECT 1 FROM services WHERE id = ?";
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
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, plan.id());
                ps.setString(2, plan.name());
                ps.setString(3, plan.description());
                ps.setLong(4, plan.allowance());
                ps.setString(5, plan.period().wire());
                ps.setLong(6, plan.rollover());
                Rows.setOptionalLong(ps, 7, plan.rateLimitPerMinute());
                ps.setString(8, plan.sla().map(SlaTerms::toText).orElse(null));
                ps.setLong(9, plan.createdAt().toEpochMilli());
                ps.setLong(10, plan.updatedAt().toEpochMilli());
                ps.setString(11, Pools.encodePlanPools(plan.pools()));
                ps.setLong(12, plan.createdAt().toEpochMilli());
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** Replaces the plan's fields; false when there is no such plan. Accounts get the new terms at their next renewal. */
    public boolean update(Plan plan) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(UPDATE)) {
                ps.setString(1, plan.name());
                ps.setString(2, plan.description());
                ps.setLong(3, plan.allowance());
                ps.setString(4, plan.period().wire());
                ps.setLong(5, plan.rollover());
                Rows.setOptionalLong(ps, 6, plan.rateLimitPerMinute());
                String sla = plan.sla().map(SlaTerms::toText).orElse(null);
                ps.setString(7, sla);
                ps.setLong(8, plan.updatedAt().toEpochMilli());
                ps.setString(9, sla);
                ps.setLong(10, plan.updatedAt().toEpochMilli());
                ps.setString(11, Pools.encodePlanPools(plan.pools()));
                ps.setString(12, plan.id());
                if (ps.executeUpdate() != 1) {
                    return false;
                }
            }
            changes.append(connection, AccessChange.Kind.PLAN, plan.id());
            return true;
        });
    }

    public Optional<Plan> find(String id) {
        return database.read(connection -> find(connection, id));
    }

    static Optional<Plan> find(Connection connection, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(plan(rs)) : Optional.empty();
            }
        }
    }

    /** Those of {@code serviceIds} that name no service, in their order. */
    public List<String> unknownServices(List<String> serviceIds) {
        return database.read(connection -> {
            List<String> unknown = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SERVICE)) {
                for (String id : serviceIds) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            unknown.add(id);
                        }
                    }
                }
            }
            return unknown;
        });
    }

    public List<Plan> list() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ALL)) {
                ps.setMaxRows(MAX_PLANS_LISTED);
                try (ResultSet rs = ps.executeQuery()) {
                    List<Plan> plans = new ArrayList<>();
                    while (rs.next()) {
                        plans.add(plan(rs));
                    }
                    return plans;
                }
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
