package dev.pulseledger.operators;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.keys.Role;
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

/**
 * SQL for operators and their admin keys. Every change that decides who may call appends an
 * {@code operator} access change in its own transaction, so every node's {@link OperatorDirectory}
 * hears of it; changes that could leave no owner run one at a time and are refused if they would.
 */
public final class OperatorStore {
    public static final int MAX_OPERATORS = 1000;
    public static final int MAX_KEYS_PER_OPERATOR = 20;

    /** Any constant works; this one spells "owners" so it is recognisable in pg_locks. */
    private static final long OWNERS_LOCK = 0x6f776e657273L;

    private static final String COLUMNS =
            "id, name, email, role, password_hash IS NOT NULL AS has_password, totp_secret IS NOT NULL AS has_totp,"
                    + " created_at, disabled_at";
    private static final String INSERT =
            "INSERT INTO operators (id, name, email, role, created_at, updated_at)" + " VALUES (?, ?, ?, ?, ?, ?)";
    private static final String SELECT_ALL =
            "SELECT " + COLUMNS + " FROM operators ORDER BY created_at, id LIMIT " + MAX_OPERATORS;
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM operators WHERE id = ?";
    private static final String COUNT = "SELECT COUNT(*) FROM operators";
    private static final String EMAIL_USED = "SELECT 1 FROM operators WHERE email = ? AND id <> ?";
    private static final String OTHER_OWNERS =
            "SELECT COUNT(*) FROM operators WHERE role = 'owner' AND disabled_at IS NULL AND id <> ?";
    private static final String UPDATE =
            "UPDATE operators SET name = ?, email = ?, role = ?, disabled_at = ?," + " updated_at = ? WHERE id = ?";
    private static final String REVOKE_ALL_KEYS =
            "UPDATE admin_keys SET revoked_at = ? WHERE operator_id = ? AND revoked_at IS NULL";
    private static final String END_SESSIONS = "DELETE FROM console_sessions WHERE operator_id = ?";
    private static final String INSERT_KEY = "INSERT INTO admin_keys (id, operator_id, name, key_hash, prefix,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String LIVE_KEYS =
            "SELECT COUNT(*) FROM admin_keys WHERE operator_id = ? AND revoked_at IS NULL";
    private static final String SELECT_KEYS = "SELECT id, operator_id, name, prefix, created_at, revoked_at"
            + " FROM admin_keys WHERE operator_id = ? ORDER BY created_at, id LIMIT 1000";
    private static final String REVOKE_KEY =
            "UPDATE admin_keys SET revoked_at = ? WHERE id = ? AND operator_id = ? AND revoked_at IS NULL";
    private static final String KEY_EXISTS = "SELECT 1 FROM admin_keys WHERE id = ? AND operator_id = ?";
    private static final String ACTIVE_KEYS = "SELECT k.key_hash, k.id, k.operator_id FROM admin_keys k"
            + " JOIN operators o ON o.id = k.operator_id"
            + " WHERE k.revoked_at IS NULL AND o.disabled_at IS NULL LIMIT "
            + (MAX_OPERATORS * MAX_KEYS_PER_OPERATOR);

    /** One live admin key: its hash, its id and whose it is. */
    public record LiveKey(String hash, String keyId, String operatorId) {}

    private final Database database;
    private final AccessChangeLog changes;

    public OperatorStore(Database database, AccessChangeLog changes) {
        this.database = database;
        this.changes = changes;
    }

    /** Adds an operator; {@link ChangeOutcome.EmailTaken} when the email is in use, nothing written then. */
    public ChangeOutcome create(String id, String name, String email, Role role, Instant at) {
        return database.inTransaction(connection -> {
            if (emailUsed(connection, email, id)) {
                return new ChangeOutcome.EmailTaken();
            }
            try (PreparedStatement ps = connection.prepareStatement(COUNT);
                    ResultSet rs = ps.executeQuery()) {
                rs.next();
                if (rs.getLong(1) >= MAX_OPERATORS) {
                    throw new IllegalStateException("At most " + MAX_OPERATORS + " operators");
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, id);
                ps.setString(2, name);
                ps.setString(3, email);
                ps.setString(4, role.text());
                ps.setLong(5, at.toEpochMilli());
                ps.setLong(6, at.toEpochMilli());
                ps.executeUpdate();
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, id);
            return new ChangeOutcome.Changed(find(connection, id).orElseThrow());
        });
    }

    public List<Operator> list() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ALL);
                    ResultSet rs = ps.executeQuery()) {
                List<Operator> operators = new ArrayList<>();
                while (rs.next()) {
                    operators.add(operator(rs));
                }
                return operators;
            }
        });
    }

    public Optional<Operator> find(String id) {
        return database.read(connection -> find(connection, id));
    }

    /**
     * Applies a PATCH. Demoting or disabling the last owner who is not disabled is refused; disabling
     * revokes every admin key of the operator and ends their console sessions in the same transaction.
     */
    public ChangeOutcome change(String id, OperatorChange change, Instant at) {
        return database.inTransaction(connection -> {
            database.serializeOn(connection, OWNERS_LOCK);
            Optional<Operator> found = find(connection, id);
            if (found.isEmpty()) {
                return new ChangeOutcome.NotFound();
            }
            Operator now = found.get();
            Role role = change.role().orElse(now.role());
            boolean disabling = change.disabled().orElse(now.disabled()) && !now.disabled();
            boolean enabling = !change.disabled().orElse(now.disabled()) && now.disabled();
            boolean losesOwner = now.role() == Role.OWNER && !now.disabled() && (role != Role.OWNER || disabling);
            if (losesOwner && otherOwners(connection, id) == 0) {
                return new ChangeOutcome.LastOwner();
            }
            Optional<String> email = change.email().or(now::email);
            if (change.email().isPresent()
                    && emailUsed(connection, change.email().get(), id)) {
                return new ChangeOutcome.EmailTaken();
            }
            Optional<Instant> disabledAt = disabling ? Optional.of(at) : enabling ? Optional.empty() : now.disabledAt();
            try (PreparedStatement ps = connection.prepareStatement(UPDATE)) {
                ps.setString(1, change.name().orElse(now.name()));
                ps.setString(2, email.orElse(null));
                ps.setString(3, role.text());
                Rows.setOptionalInstant(ps, 4, disabledAt);
                ps.setLong(5, at.toEpochMilli());
                ps.setString(6, id);
                ps.executeUpdate();
            }
            if (disabling) {
                revokeAllKeys(connection, id, at);
            }
            if (disabling || role != now.role()) {
                endSessions(connection, id);
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, id);
            return new ChangeOutcome.Changed(find(connection, id).orElseThrow());
        });
    }

    /**
     * Stores a new admin key of an operator who is not disabled; false when there is no such operator,
     * they are disabled, or they hold {@link #MAX_KEYS_PER_OPERATOR} live keys already.
     */
    public boolean addKey(AdminKey key, String keyHash) {
        return database.inTransaction(connection -> {
            Optional<Operator> owner = find(connection, key.operatorId());
            if (owner.isEmpty()
                    || owner.get().disabled()
                    || liveKeys(connection, key.operatorId()) >= MAX_KEYS_PER_OPERATOR) {
                return false;
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_KEY)) {
                ps.setString(1, key.id());
                ps.setString(2, key.operatorId());
                ps.setString(3, key.name());
                ps.setString(4, keyHash);
                ps.setString(5, key.prefix().orElse(null));
                ps.setLong(6, key.createdAt().toEpochMilli());
                ps.executeUpdate();
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, key.operatorId());
            return true;
        });
    }

    public List<AdminKey> keys(String operatorId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_KEYS)) {
                ps.setString(1, operatorId);
                List<AdminKey> keys = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.add(new AdminKey(
                                rs.getString("id"),
                                rs.getString("operator_id"),
                                Optional.ofNullable(rs.getString("name")).orElse(""),
                                Optional.ofNullable(rs.getString("prefix")),
                                Rows.instant(rs, "created_at"),
                                Rows.optionalInstant(rs, "revoked_at")));
                    }
                }
                return keys;
            }
        });
    }

    /** Revokes one admin key of the operator; false when they have no such key. Revoking twice is harmless. */
    public boolean revokeKey(String operatorId, String keyId, Instant at) {
        return database.inTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(REVOKE_KEY)) {
                ps.setLong(1, at.toEpochMilli());
                ps.setString(2, keyId);
                ps.setString(3, operatorId);
                if (ps.executeUpdate() == 1) {
                    changes.append(connection, AccessChange.Kind.OPERATOR, operatorId);
                    return true;
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(KEY_EXISTS)) {
                ps.setString(1, keyId);
                ps.setString(2, operatorId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** Every admin key that is not revoked and whose operator is not disabled. */
    public List<LiveKey> liveKeys() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(ACTIVE_KEYS);
                    ResultSet rs = ps.executeQuery()) {
                List<LiveKey> keys = new ArrayList<>();
                while (rs.next()) {
                    keys.add(new LiveKey(rs.getString(1), rs.getString(2), rs.getString(3)));
                }
                return keys;
            }
        });
    }

    private static Optional<Operator> find(Connection connection, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(operator(rs)) : Optional.empty();
            }
        }
    }

    private static boolean emailUsed(Connection connection, String email, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(EMAIL_USED)) {
            ps.setString(1, email);
            ps.setString(2, id);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    private static long otherOwners(Connection connection, String id) throws SQLException {
        return countFor(connection, OTHER_OWNERS, id);
    }

    private static long liveKeys(Connection connection, String operatorId) throws SQLException {
        return countFor(connection, LIVE_KEYS, operatorId);
    }

    private static long countFor(Connection connection, String sql, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, id);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static void revokeAllKeys(Connection connection, String id, Instant at) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(REVOKE_ALL_KEYS)) {
            ps.setLong(1, at.toEpochMilli());
            ps.setString(2, id);
            ps.executeUpdate();
        }
    }

    private static void endSessions(Connection connection, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(END_SESSIONS)) {
            ps.setString(1, id);
            ps.executeUpdate();
        }
    }

    private static Operator operator(ResultSet rs) throws SQLException {
        return new Operator(
                rs.getString("id"),
                rs.getString("name"),
                Optional.ofNullable(rs.getString("email")),
                Role.parse(rs.getString("role"))
                        .orElseThrow(() -> new IllegalStateException("Unknown role in the database")),
                rs.getBoolean("has_password"),
                rs.getBoolean("has_totp"),
                Rows.instant(rs, "created_at"),
                Rows.optionalInstant(rs, "disabled_at"));
    }
}
