package dev.pulseledger.keys;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
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

/**
 * SQL for caller keys and admin keys; only hashes are stored. Lookups for authentication run on their
 * own small pool, so they never wait behind the spend writer for a connection.
 */
public final class KeyStore {
    private static final String INSERT =
            "INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at, expires_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String SELECT_BY_ACCOUNT =
            "SELECT id, account_id, name, prefix, created_at, expires_at, revoked_at FROM api_keys"
                    + " WHERE account_id = ? ORDER BY id LIMIT ?";
    private static final String SELECT_GRANT =
            "SELECT k.id, k.account_id, a.plan_id, a.status, k.expires_at, k.revoked_at"
                    + " FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?";
    private static final String SELECT_HASHES = "SELECT key_hash FROM api_keys WHERE revoked_at IS NULL";
    private static final String REVOKE =
            "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING key_hash";
    private static final String EXISTS = "SELECT 1 FROM api_keys WHERE id = ?";
    private static final String SELECT_BY_ID =
            "SELECT id, account_id, name, prefix, created_at, expires_at, revoked_at FROM api_keys WHERE id = ?";
    private static final String INSERT_BUDGET =
            "INSERT INTO key_budgets (key_id, pool, period, tokens, position, set_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String DELETE_BUDGETS = "DELETE FROM key_budgets WHERE key_id = ?";
    private static final String SELECT_BUDGETS_OF_ACCOUNT = "SELECT b.key_id, b.pool, b.period, b.tokens"
            + " FROM key_budgets b JOIN api_keys k ON k.id = b.key_id WHERE k.account_id = ?"
            + " ORDER BY b.key_id, b.position";
    /** The first admin key belongs to the first owner (CONTRACT §17), the earliest owner not disabled. */
    private static final String INSERT_ADMIN =
            "INSERT INTO admin_keys (key_hash, created_at, prefix, id, name, operator_id) VALUES (?, ?, ?, ?,"
                    + " 'first admin key', (SELECT id FROM operators WHERE role = 'owner' AND disabled_at IS NULL"
                    + " ORDER BY created_at, id LIMIT 1))";

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
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, key.id());
                ps.setString(2, key.accountId());
                ps.setString(3, key.name());
                ps.setString(4, keyHash);
                ps.setString(5, key.prefix());
                ps.setLong(6, key.createdAt().toEpochMilli());
                Rows.setOptionalInstant(ps, 7, key.expiresAt());
                ps.executeUpdate();
            }
            insertBudgets(connection, key.id(), budgets, key.createdAt());
            changes.append(connection, AccessChange.Kind.KEY, keyHash);
        });
    }

    /** The key with this id, revoked or not. */
    public Optional<ApiKey> find(String keyId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_BY_ID)) {
                ps.setString(1, keyId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(apiKey(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Replaces the key's budgets with {@code budgets} (none clears them), as of {@code at}. */
    public void replaceBudgets(String keyId, List<KeyBudget> budgets, Instant at) {
        database.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(DELETE_BUDGETS)) {
                ps.setString(1, keyId);
                ps.executeUpdate();
            }
            insertBudgets(connection, keyId, budgets, at);
            KeyBudgetSeed.fill(connection, database.dialect(), keyId, budgets, at);
        });
    }

    /** The budgets of the account's keys, by key id, each key's in its order; a key without any is absent. */
    public Map<String, List<KeyBudget>> budgetsOfAccount(String accountId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_BUDGETS_OF_ACCOUNT)) {
                ps.setString(1, accountId);
                Map<String, List<KeyBudget>> budgets = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        budgets.computeIfAbsent(rs.getString("key_id"), id -> new ArrayList<>())
                                .add(new KeyBudget(
                                        rs.getString("pool"),
                                        BudgetPeriod.fromWire(rs.getString("period"))
                                                .orElseThrow(),
                                        rs.getLong("tokens")));
                    }
                }
                return budgets;
            }
        });
    }

    private static void insertBudgets(Connection connection, String keyId, List<KeyBudget> budgets, Instant at)
            throws SQLException {
        if (budgets.isEmpty()) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(INSERT_BUDGET)) {
            for (int i = 0; i < budgets.size(); i++) {
                KeyBudget budget = budgets.get(i);
                ps.setString(1, keyId);
                ps.setString(2, budget.pool());
                ps.setString(3, budget.period().wire());
                ps.setLong(4, budget.tokens());
                ps.setInt(5, i);
                ps.setLong(6, at.toEpochMilli());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    public List<ApiKey> listForAccount(String accountId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_BY_ACCOUNT)) {
                ps.setString(1, accountId);
                ps.setInt(2, MAX_KEYS_PER_ACCOUNT);
                List<ApiKey> keys = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        keys.add(apiKey(rs));
                    }
                }
                return keys;
            }
        });
    }

    public Optional<KeyGrant> findGrant(String keyHash) {
        return lookups.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_GRANT)) {
                ps.setString(1, keyHash);
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
            try (PreparedStatement ps = connection.prepareStatement(REVOKE)) {
                ps.setLong(1, at.toEpochMilli());
                ps.setString(2, keyId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        changes.append(connection, AccessChange.Kind.KEY, rs.getString(1));
                        return true;
                    }
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(EXISTS)) {
                ps.setString(1, keyId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next();
                }
            }
        });
    }

    /** Hands every key hash that is not revoked to {@code sink}, a page of rows at a time. */
    public void forEachKeyHash(Consumer<String> sink) {
        lookups.runInTransaction(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_HASHES)) {
                ps.setFetchSize(HASH_FETCH_SIZE);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        sink.accept(rs.getString(1));
                    }
                }
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
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ADMIN);
                    ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return false;
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_ADMIN)) {
                ps.setString(1, keyHash);
                ps.setLong(2, at.toEpochMilli());
                ps.setString(3, prefix);
                ps.setString(4, Ids.adminKey());
                return ps.executeUpdate() == 1;
            }
        });
    }

    /** The display prefixes of the stored admin keys; empty for a key stored before prefixes were. */
    public List<Optional<String>> adminKeyPrefixes() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ADMIN_PREFIXES);
                    ResultSet rs = ps.executeQuery()) {
                List<Optional<String>> prefixes = new ArrayList<>();
                while (rs.next()) {
                    prefixes.add(Optional.ofNullable(rs.getString(1)));
                }
                return prefixes;
            }
        });
    }

    public List<String> adminKeyHashes() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ADMIN);
                    ResultSet rs = ps.executeQuery()) {
                List<String> hashes = new ArrayList<>();
                while (rs.next()) {
                    hashes.add(rs.getString(1));
                }
                return hashes;
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
