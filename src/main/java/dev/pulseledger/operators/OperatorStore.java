package dev.pulseledger.operators;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.keys.Role;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

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
    private static final String INSERT = "INSERT INTO operators (id, name, email, role, created_at, updated_at)"
            + " VALUES (:id, :name, :email, :role, :at, :at)";
    private static final String SELECT_ALL =
            "SELECT " + COLUMNS + " FROM operators ORDER BY created_at, id LIMIT " + MAX_OPERATORS;
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM operators WHERE id = :id";
    private static final String COUNT = "SELECT COUNT(*) FROM operators";
    private static final String EMAIL_USED = "SELECT 1 FROM operators WHERE email = :email AND id <> :id";
    private static final String OTHER_OWNERS =
            "SELECT COUNT(*) FROM operators WHERE role = 'owner' AND disabled_at IS NULL AND id <> :id";
    private static final String UPDATE = "UPDATE operators SET name = :name, email = :email, role = :role,"
            + " disabled_at = :disabled_at, updated_at = :updated_at WHERE id = :id";
    private static final String REVOKE_ALL_KEYS =
            "UPDATE admin_keys SET revoked_at = :revoked_at" + " WHERE operator_id = :id AND revoked_at IS NULL";
    private static final String END_SESSIONS = "DELETE FROM console_sessions WHERE operator_id = :id";
    private static final String INSERT_KEY = "INSERT INTO admin_keys (id, operator_id, name, key_hash, prefix,"
            + " created_at) VALUES (:id, :operator_id, :name, :key_hash, :prefix, :created_at)";
    private static final String LIVE_KEYS =
            "SELECT COUNT(*) FROM admin_keys WHERE operator_id = :id AND revoked_at IS NULL";
    private static final String SELECT_KEYS = "SELECT id, operator_id, name, prefix, created_at, revoked_at"
            + " FROM admin_keys WHERE operator_id = :operator_id ORDER BY created_at, id LIMIT 1000";
    private static final String REVOKE_KEY = "UPDATE admin_keys SET revoked_at = :revoked_at"
            + " WHERE id = :id AND operator_id = :operator_id AND revoked_at IS NULL";
    private static final String KEY_EXISTS = "SELECT 1 FROM admin_keys WHERE id = :id AND operator_id = :operator_id";
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
            try (Handle sql = Sql.on(connection)) {
                if (emailUsed(sql, email, id)) {
                    return new ChangeOutcome.EmailTaken();
                }
                if (sql.createQuery(COUNT).mapTo(Long.class).one() >= MAX_OPERATORS) {
                    throw new IllegalStateException("At most " + MAX_OPERATORS + " operators");
                }
                sql.createUpdate(INSERT)
                        .bind("id", id)
                        .bind("name", name)
                        .bind("email", email)
                        .bind("role", role.text())
                        .bind("at", at.toEpochMilli())
                        .execute();
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, id);
            return new ChangeOutcome.Changed(find(connection, id).orElseThrow());
        });
    }

    public List<Operator> list() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ALL)
                        .map((rs, ctx) -> operator(rs))
                        .list();
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
            try (Handle sql = Sql.on(connection)) {
                Optional<Operator> found = find(sql, id);
                if (found.isEmpty()) {
                    return new ChangeOutcome.NotFound();
                }
                Operator now = found.get();
                Role role = change.role().orElse(now.role());
                boolean disabling = change.disabled().orElse(now.disabled()) && !now.disabled();
                boolean enabling = !change.disabled().orElse(now.disabled()) && now.disabled();
                boolean losesOwner = now.role() == Role.OWNER && !now.disabled() && (role != Role.OWNER || disabling);
                if (losesOwner && countFor(sql, OTHER_OWNERS, id) == 0) {
                    return new ChangeOutcome.LastOwner();
                }
                Optional<String> email = change.email().or(now::email);
                if (change.email().isPresent() && emailUsed(sql, change.email().get(), id)) {
                    return new ChangeOutcome.EmailTaken();
                }
                Optional<Instant> disabledAt =
                        disabling ? Optional.of(at) : enabling ? Optional.empty() : now.disabledAt();
                sql.createUpdate(UPDATE)
                        .bind("name", change.name().orElse(now.name()))
                        .bind("email", email.orElse(null))
                        .bind("role", role.text())
                        .bind(
                                "disabled_at",
                                disabledAt.map(Instant::toEpochMilli).orElse(null))
                        .bind("updated_at", at.toEpochMilli())
                        .bind("id", id)
                        .execute();
                if (disabling) {
                    sql.createUpdate(REVOKE_ALL_KEYS)
                            .bind("revoked_at", at.toEpochMilli())
                            .bind("id", id)
                            .execute();
                }
                if (disabling || role != now.role()) {
                    sql.createUpdate(END_SESSIONS).bind("id", id).execute();
                }
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
            try (Handle sql = Sql.on(connection)) {
                Optional<Operator> owner = find(sql, key.operatorId());
                if (owner.isEmpty()
                        || owner.get().disabled()
                        || countFor(sql, LIVE_KEYS, key.operatorId()) >= MAX_KEYS_PER_OPERATOR) {
                    return false;
                }
                sql.createUpdate(INSERT_KEY)
                        .bind("id", key.id())
                        .bind("operator_id", key.operatorId())
                        .bind("name", key.name())
                        .bind("key_hash", keyHash)
                        .bind("prefix", key.prefix().orElse(null))
                        .bind("created_at", key.createdAt().toEpochMilli())
                        .execute();
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, key.operatorId());
            return true;
        });
    }

    public List<AdminKey> keys(String operatorId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_KEYS)
                        .bind("operator_id", operatorId)
                        .map((rs, ctx) -> new AdminKey(
                                rs.getString("id"),
                                rs.getString("operator_id"),
                                Optional.ofNullable(rs.getString("name")).orElse(""),
                                Optional.ofNullable(rs.getString("prefix")),
                                Rows.instant(rs, "created_at"),
                                Rows.optionalInstant(rs, "revoked_at")))
                        .list();
            }
        });
    }

    /** Revokes one admin key of the operator; false when they have no such key. Revoking twice is harmless. */
    public boolean revokeKey(String operatorId, String keyId, Instant at) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (sql.createUpdate(REVOKE_KEY)
                                .bind("revoked_at", at.toEpochMilli())
                                .bind("id", keyId)
                                .bind("operator_id", operatorId)
                                .execute()
                        != 1) {
                    return sql.createQuery(KEY_EXISTS)
                            .bind("id", keyId)
                            .bind("operator_id", operatorId)
                            .mapTo(Integer.class)
                            .findFirst()
                            .isPresent();
                }
            }
            changes.append(connection, AccessChange.Kind.OPERATOR, operatorId);
            return true;
        });
    }

    /** Every admin key that is not revoked and whose operator is not disabled. */
    public List<LiveKey> liveKeys() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(ACTIVE_KEYS)
                        .map((rs, ctx) -> new LiveKey(rs.getString(1), rs.getString(2), rs.getString(3)))
                        .list();
            }
        });
    }

    private static Optional<Operator> find(Connection connection, String id) {
        try (Handle sql = Sql.on(connection)) {
            return find(sql, id);
        }
    }

    private static Optional<Operator> find(Handle sql, String id) {
        return sql.createQuery(SELECT_ONE)
                .bind("id", id)
                .map((rs, ctx) -> operator(rs))
                .findOne();
    }

    private static boolean emailUsed(Handle sql, String email, String id) {
        return sql.createQuery(EMAIL_USED)
                .bind("email", email)
                .bind("id", id)
                .mapTo(Integer.class)
                .findFirst()
                .isPresent();
    }

    private static long countFor(Handle sql, String statement, String id) {
        return sql.createQuery(statement).bind("id", id).mapTo(Long.class).one();
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
