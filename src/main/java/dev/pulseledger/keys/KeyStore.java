package dev.pulseledger.keys;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * SQL for caller keys and admin keys; only hashes are stored. Lookups for authentication run on their
 * own small pool, so they never wait behind the spend writer for a connection. The lookup that
 * authenticates every API request is hand-written JDBC, bound by name; the rest goes through Jdbi.
 */
public final class KeyStore {
    private static final String KEY_COLUMNS = "id, account_id, name, prefix, created_at, expires_at, revoked_at";
    private static final String INSERT =
            "INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at, expires_at)"
                    + " VALUES (:id, :account_id, :name, :key_hash, :prefix, :created_at, :expires_at)";
    private static final String SELECT_BY_ACCOUNT =
            "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE account_id = :account_id ORDER BY id LIMIT :rows";
    /** Runs on every API request: hand-written, bound by name. */
    private static final NamedSql SELECT_GRANT = NamedSql.parse("SELECT k.id, k.account_id, a.plan_id, a.status,"
            + " k.expires_at, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id"
            + " WHERE k.key_hash = :key_hash");

    private static final String SELECT_HASHES = "SELECT key_hash FROM api_keys WHERE revoked_at IS NULL";
    private static final String REVOKE = "UPDATE api_keys SET revoked_at = :revoked_at"
            + " WHERE id = :id AND revoked_at IS NULL RETURNING key_hash";
    private static final String EXISTS = "SELECT 1 FROM api_keys WHERE id = :id";
    private static final String SELECT_BY_ID = "SELECT " + KEY_COLUMNS + " FROM api_keys WHERE id = :id";
    private static final String INSERT_BUDGET = "INSERT INTO key_budgets (key_id, pool, period, tokens, position,"
            + " set_at) VALUES (:key_id, :pool, :period, :tokens, :position, :set_at)";
    private static final String DELETE_BUDGETS = "DELETE FROM key_budgets WHERE key_id = :key_id";
    private static final String SELECT_BUDGETS_OF_ACCOUNT = "SELECT b.key_id, b.pool, b.period, b.tokens"
            + " FROM key_budgets b JOIN api_keys k ON k.id = b.key_id WHERE k.account_id = :account_id"
            + " ORDER BY b.key_id, b.position";
    /** The first admin key belongs to the first owner (CONTRACT §17), the earliest owner not disabled. */
    private static final String INSERT_ADMIN =
            "INSERT INTO admin_keys (key_hash, created_at, prefix, id, name, operator_id) VALUES (:key_hash,"
                    + " :created_at, :prefix, :id, 'first admin key', (SELECT id FROM operators WHERE role = 'owner'"
                    + " AND disabled_at IS NULL ORDER BY created_at, id LIMIT 1))";

    private static final String SELECT_ADMIN_PREFIXES =
            "SELECT prefix FROM admin_keys WHERE name = 'first admin key' ORDER BY created_at";
    /** Any constant works; this one spells "admkey" so it is recognisable in pg_locks. */
    private static final long FIRST_ADMIN_KEY_LOCK = 0x61646d6b6579L;

    private static final String SELECT_ADMIN = "SELECT key_hash FROM admin_keys";
    public static final int MAX_KEYS_PER_ACCOUNT = 1000;

    /** Rows fetched at a time when every key hash is loaded, so a million keys never sit in memory as rows. */
    private static final int HASH_FETCH_SIZE = 10_000;

    private final Database database;
    private final Database lookups;
    private final AccessChangeLog changes;

    public KeyStore(Database database, Database lookups, AccessChangeLog changes) {
        this.database = database;
        this.lookups = lookups;
        this.changes = changes;
    }

    /** Stores a new key with its budgets (CONTRACT §14). */
    public void create(ApiKey key, String keyHash, List<KeyBudget> budgets) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(INSERT)
                        .bind("id", key.id())
                        .bind("account_id", key.accountId())
                        .bind("name", key.name())
                        .bind("key_hash", keyHash)
                        .bind("prefix", key.prefix())
                        .bind("created_at", key.createdAt().toEpochMilli())
                        .bind(
                                "expires_at",
                                key.expiresAt().map(Instant::toEpochMilli).orElse(null))
                        .execute();
                insertBudgets(sql, key.id(), budgets, key.createdAt());
            }
            changes.append(connection, AccessChange.Kind.KEY, keyHash);
        });
    }

    /** The key with this id, revoked or not. */
    public Optional<ApiKey> find(String keyId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_BY_ID)
                        .bind("id", keyId)
                        .map((rs, ctx) -> apiKey(rs))
                        .findOne();
            }
        });
    }

    /** Replaces the key's budgets with {@code budgets} (none clears them), as of {@code at}. */
    public void replaceBudgets(String keyId, List<KeyBudget> budgets, Instant at) {
        database.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createUpdate(DELETE_BUDGETS).bind("key_id", keyId).execute();
                insertBudgets(sql, keyId, budgets, at);
                KeyBudgetSeed.fill(sql, database.dialect(), keyId, budgets, at);
            }
        });
    }

    /** The budgets of the account's keys, by key id, each key's in its order; a key without any is absent. */
    public Map<String, List<KeyBudget>> budgetsOfAccount(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Map<String, List<KeyBudget>> budgets = new HashMap<>();
                sql.createQuery(SELECT_BUDGETS_OF_ACCOUNT)
                        .bind("account_id", accountId)
                        .map((rs, ctx) -> Map.entry(
                                rs.getString("key_id"),
                                new KeyBudget(
                                        rs.getString("pool"),
                                        BudgetPeriod.fromWire(rs.getString("period"))
                                                .orElseThrow(),
                                        rs.getLong("tokens"))))
                        .forEach(budget -> budgets.computeIfAbsent(budget.getKey(), id -> new ArrayList<>())
                                .add(budget.getValue()));
                return budgets;
            }
        });
    }

    private static void insertBudgets(Handle sql, String keyId, List<KeyBudget> budgets, Instant at) {
        if (budgets.isEmpty()) {
            return;
        }
        PreparedBatch batch = sql.prepareBatch(INSERT_BUDGET);
        for (int i = 0; i < budgets.size(); i++) {
            KeyBudget budget = budgets.get(i);
            batch.bind("key_id", keyId)
                    .bind("pool", budget.pool())
                    .bind("period", budget.period().wire())
                    .bind("tokens", budget.tokens())
                    .bind("position", i)
                    .bind("set_at", at.toEpochMilli())
                    .add();
        }
        batch.execute();
    }

    public List<ApiKey> listForAccount(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_BY_ACCOUNT)
                        .bind("account_id", accountId)
                        .bind("rows", MAX_KEYS_PER_ACCOUNT)
                        .map((rs, ctx) -> apiKey(rs))
                        .list();
            }
        });
    }

    public Optional<KeyGrant> findGrant(String keyHash) {
        return lookups.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_GRANT.sql())) {
                SELECT_GRANT.setString(ps, "key_hash", keyHash);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new KeyGrant(
                            rs.getString(1),
                            rs.getString(2),
                            rs.getString(3),
                            "suspended".equals(rs.getString(4)),
                            Rows.optionalInstant(rs, "expires_at"),
                            Rows.optionalInstant(rs, "revoked_at")));
                }
            }
        });
    }

    /** Revokes the key; false when there is no such key. Revoking twice is harmless. */
    public boolean revoke(String keyId, Instant at) {
        return database.inTransaction(connection -> {
            Optional<String> revokedHash;
            try (Handle sql = Sql.on(connection)) {
                revokedHash = sql.createQuery(REVOKE)
                        .bind("revoked_at", at.toEpochMilli())
                        .bind("id", keyId)
                        .mapTo(String.class)
                        .findFirst();
                if (revokedHash.isEmpty()) {
                    return sql.createQuery(EXISTS)
                            .bind("id", keyId)
                            .mapTo(Integer.class)
                            .findFirst()
                            .isPresent();
                }
            }
            changes.append(connection, AccessChange.Kind.KEY, revokedHash.get());
            return true;
        });
    }

    /** Hands every key hash that is not revoked to {@code sink}, a page of rows at a time. */
    public void forEachKeyHash(Consumer<String> sink) {
        lookups.runInTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                sql.createQuery(SELECT_HASHES)
                        .setFetchSize(HASH_FETCH_SIZE)
                        .map((rs, ctx) -> rs.getString(1))
                        .forEach(sink);
            }
        });
    }

    /**
     * Stores the first admin key, unless one exists already: nodes starting at the same moment on
     * an empty database agree on one key instead of each printing its own. True when stored.
     */
    public boolean addFirstAdminKey(String keyHash, String prefix, Instant at) {
        return database.inTransaction(connection -> {
            database.serializeOn(connection, FIRST_ADMIN_KEY_LOCK);
            try (Handle sql = Sql.on(connection)) {
                if (sql.createQuery(SELECT_ADMIN)
                        .mapTo(String.class)
                        .findFirst()
                        .isPresent()) {
                    return false;
                }
                return sql.createUpdate(INSERT_ADMIN)
                                .bind("key_hash", keyHash)
                                .bind("created_at", at.toEpochMilli())
                                .bind("prefix", prefix)
                                .bind("id", Ids.adminKey())
                                .execute()
                        == 1;
            }
        });
    }

    /** The display prefixes of the stored admin keys; empty for a key stored before prefixes were. */
    public List<Optional<String>> adminKeyPrefixes() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ADMIN_PREFIXES)
                        .map((rs, ctx) -> Optional.ofNullable(rs.getString(1)))
                        .list();
            }
        });
    }

    public List<String> adminKeyHashes() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ADMIN).mapTo(String.class).list();
            }
        });
    }

    private static ApiKey apiKey(ResultSet rs) throws SQLException {
        return new ApiKey(
                rs.getString("id"),
                rs.getString("account_id"),
                rs.getString("name"),
                rs.getString("prefix"),
                Rows.instant(rs, "created_at"),
                Rows.optionalInstant(rs, "expires_at"),
                Rows.optionalInstant(rs, "revoked_at"));
    }
}
