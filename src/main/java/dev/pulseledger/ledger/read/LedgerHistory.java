package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.ledger.core.BudgetWindow;
import dev.pulseledger.ledger.db.KeyBudgetRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Sql;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.statement.Query;

/**
 * Reads an account's past from its ledger: spending per period and the balance at an instant. Both
 * are range reads on the index {@code (account_id, created_at)}, never a scan of other accounts.
 */
public final class LedgerHistory {
    /**
     * Sums spend and revert lines per finer period ({@code created_at / :row_millis}). A spending that drew on
     * several grants has several spend lines with one spending id, so spendings are counted by id.
     */
    private static final String USAGE_ROWS_OF = """
            SELECT period, SUM(spent) AS spent, SUM(reverted) AS reverted,
                   COUNT(DISTINCT spending) AS spendings
            FROM (SELECT created_at / :row_millis AS period,
                         CASE WHEN kind = 'spend' THEN -amount ELSE 0 END AS spent,
                         CASE WHEN kind = 'revert' THEN amount ELSE 0 END AS reverted,
                         CASE WHEN kind = 'spend' THEN spending_id END AS spending
                  FROM ledger_entries
                  WHERE account_id = :account_id AND created_at >= :from AND created_at < :to
                    AND kind IN ('spend', 'revert')%s) lines
            GROUP BY period
            """;
    /** The condition on one pool's spending (CONTRACT §14). */
    private static final String OF_POOL = " AND pool = :pool";
    /**
     * The condition on the spending of one key: the lines of the spendings it made (V271, CONTRACT §14), found
     * through the account's spendings (spendings_account_seq): spendings keep no index by key.
     */
    private static final String OF_KEY =
            " AND spending_id IN (SELECT id FROM spendings WHERE account_id = :account_id AND key_id = :key_id)";
    /** The usage statement by its conditions: none, the pool's, the key's, both. */
    private static final List<String> USAGE_ROWS = List.of(
            USAGE_ROWS_OF.formatted(""),
            USAGE_ROWS_OF.formatted(OF_POOL),
            USAGE_ROWS_OF.formatted(OF_KEY),
            USAGE_ROWS_OF.formatted(OF_POOL + OF_KEY));

    /** The account's named pools and its plan's. */
    private static final String POOLS = "SELECT a.pools, p.pools AS plan_pools FROM accounts a"
            + " JOIN plans p ON p.id = a.plan_id WHERE a.id = :account_id";

    /** The last line at or before the instant; lines of one commit share a time, so seq breaks ties. */
    private static final String BALANCE_AT = "SELECT balance_after FROM ledger_entries"
            + " WHERE account_id = :account_id AND created_at <= :at AND pool = 'default'"
            + " ORDER BY created_at DESC, seq DESC LIMIT 1";

    /** The account's newest line: an account's lines are in time order, and seq orders a commit's (V181). */
    private static final String LATEST = "SELECT seq, balance_after, created_at FROM ledger_entries"
            + " WHERE account_id = :account_id AND pool = 'default' ORDER BY created_at DESC, seq DESC LIMIT 1";

    /** The newest line of an account's ledger: its position, the balance it left, and when. */
    public record Head(long sequence, long balance, Instant at) {}

    private final Database database;

    public LedgerHistory(Database database) {
        this.database = database;
    }

    /** The account's spending, in every pool, in each bucket of the window. */
    public UsageReport usage(String accountId, UsageWindow window) {
        return usage(accountId, Optional.empty(), window);
    }

    /** The account's spending in each bucket of the window: in one pool, or in every pool when none is named. */
    public UsageReport usage(String accountId, Optional<String> pool, UsageWindow window) {
        return usage(accountId, pool, Optional.empty(), window);
    }

    /**
     * The account's spending in each bucket of the window: in one pool or in every pool, by one key (which
     * the caller has checked is the account's) or by every key and operator.
     */
    public UsageReport usage(String accountId, Optional<String> pool, Optional<String> keyId, UsageWindow window) {
        long rowMillis = window.granularity().rowMillis();
        String statement = USAGE_ROWS.get((pool.isPresent() ? 1 : 0) + (keyId.isPresent() ? 2 : 0));
        List<UsageReport.Row> rows = database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                Query query = sql.createQuery(statement)
                        .bind("row_millis", rowMillis)
                        .bind("account_id", accountId)
                        .bind("from", window.from().toEpochMilli())
                        .bind("to", window.to().toEpochMilli());
                pool.ifPresent(name -> query.bind("pool", name));
                keyId.ifPresent(id -> query.bind("key_id", id));
                return query.map((rs, ctx) -> new UsageReport.Row(
                                rs.getLong("period") * rowMillis,
                                rs.getLong("spent"),
                                rs.getLong("reverted"),
                                rs.getLong("spendings")))
                        .list();
            }
        });
        return UsageReport.of(window, rows);
    }

    /** The key's budgets, each with what the key used of it in its window at {@code now} (CONTRACT §14). */
    public List<BudgetWindow> budgetWindows(String keyId, Instant now) {
        return database.read(connection -> KeyBudgetRows.windows(connection, keyId, now));
    }

    /** True when the account has the pool: {@code default}, one on record, or one its plan grants in. */
    public boolean hasPool(String accountId, String pool) {
        if (Pools.DEFAULT.equals(pool)) {
            return true;
        }
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(POOLS)
                        .bind("account_id", accountId)
                        .map((rs, ctx) ->
                                Pools.decodeNames(rs.getString("pools")).contains(pool)
                                        || Pools.decodePlanPools(rs.getString("plan_pools"))
                                                .containsKey(pool))
                        .findOne()
                        .orElse(false);
            }
        });
    }

    /** The {@code default} pool's balance right after its last ledger line at or before {@code at}; 0 before the first. */
    public long balanceAt(String accountId, Instant at) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(BALANCE_AT)
                        .bind("account_id", accountId)
                        .bind("at", at.toEpochMilli())
                        .mapTo(Long.class)
                        .findOne()
                        .orElse(0L);
            }
        });
    }

    /** The account's newest ledger line, or empty when it has none. */
    public Optional<Head> latest(String accountId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(LATEST)
                        .bind("account_id", accountId)
                        .map((rs, ctx) -> new Head(
                                rs.getLong("seq"),
                                rs.getLong("balance_after"),
                                Instant.ofEpochMilli(rs.getLong("created_at"))))
                        .findOne();
            }
        });
    }
}
