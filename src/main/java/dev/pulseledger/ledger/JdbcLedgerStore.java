package dev.pulseledger.ledger;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.ledger.LedgerState.AccountState;
import dev.pulseledger.ledger.LedgerState.IdempotencyScope;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The part of a ledger round that is the same SQL on every database: reading spendings, plans and
 * idempotency records, inserting new accounts, marking earlier spendings reverted, storing
 * idempotency records and events.
 * Locking accounts and writing balances, spendings and ledger lines differ per database.
 */
abstract sealed class JdbcLedgerStore implements LedgerStore permits PostgresLedgerStore, SqliteLedgerStore {
    /** The balance and the effective low-balance threshold: the account's own, else its plan's. */
    static final String LOCKED_COLUMNS = "SELECT id, balance, COALESCE(low_balance_threshold,"
            + " (SELECT p.low_balance_threshold FROM plans p WHERE p.id = accounts.plan_id)) FROM accounts";

    private static final String SELECT_SPENDING = "SELECT " + SpendingQueries.COLUMNS + " FROM spendings WHERE id = ?";
    private static final String SELECT_SPEND_BALANCE =
            "SELECT balance_after FROM ledger_entries WHERE spending_id = ? AND kind = 'spend'";
    private static final String SELECT_IDEMPOTENCY =
            "SELECT amount, outcome, spending_id, balance, created_at FROM idempotency_keys"
                    + " WHERE account_id = ? AND key = ?";
    private static final String SELECT_PLAN = "SELECT 1 FROM plans WHERE id = ?";
    private static final String INSERT_ACCOUNT =
            "INSERT INTO accounts (id, name, plan_id, balance, status, created_at)" + " VALUES (?, ?, ?, 0, ?, ?)";
    private static final String MARK_REVERTED =
            "UPDATE spendings SET status = 'reverted', reverted_at = ? WHERE id = ? AND status = 'active'";
    private static final String INSERT_IDEMPOTENCY =
            "INSERT INTO idempotency_keys (account_id, key, amount, outcome, spending_id, balance,"
                    + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final Database database;
    private final Outbox outbox;

    JdbcLedgerStore(Database database, Outbox outbox) {
        this.database = database;
        this.outbox = outbox;
    }

    @Override
    public final Decision round(StateQuery query, Function<LedgerState, Decision> decide) {
        return database.inTransaction(connection -> {
            LedgerState state = read(connection, query);
            Decision decision = decide.apply(state);
            write(connection, decision.changes());
            return decision;
        });
    }

    /** Locks the accounts (until the transaction ends) and reads them. */
    abstract Map<String, AccountState> lockAccounts(Connection connection, SortedSet<String> ids) throws SQLException;

    /** Writes the new balances, the new spendings and the ledger lines. */
    abstract void writeBalancesSpendingsAndLines(Connection connection, ChangeSet changes) throws SQLException;

    static void readAccounts(PreparedStatement ps, Map<String, AccountState> accounts) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                long threshold = rs.getLong(3);
                Optional<Long> lowBalanceThreshold = rs.wasNull() ? Optional.empty() : Optional.of(threshold);
                accounts.put(rs.getString(1), new AccountState(rs.getString(1), rs.getLong(2), lowBalanceThreshold));
            }
        }
    }

    private LedgerState read(Connection connection, StateQuery query) throws SQLException {
        Map<String, AccountState> accounts = lockAccounts(connection, query.accountIds());
        Map<String, Spending> spendings = new HashMap<>();
        Map<String, Long> landedSpendBalances = new HashMap<>();
        if (!query.spendingIds().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SPENDING)) {
                for (String id : query.spendingIds()) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            spendings.put(id, SpendingQueries.spending(rs));
                        }
                    }
                }
            }
        }
        if (query.landedSpends()) {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SPEND_BALANCE)) {
                for (String id : spendings.keySet()) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            landedSpendBalances.put(id, rs.getLong(1));
                        }
                    }
                }
            }
        }
        return new LedgerState(
                accounts,
                spendings,
                idempotencyRecords(connection, query),
                landedSpendBalances,
                existingPlans(connection, query));
    }

    private static Set<String> existingPlans(Connection connection, StateQuery query) throws SQLException {
        Set<String> existing = new HashSet<>();
        if (query.planIds().isEmpty()) {
            return existing;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_PLAN)) {
            for (String id : query.planIds()) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        existing.add(id);
                    }
                }
            }
        }
        return existing;
    }

    private static Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords(Connection connection, StateQuery query)
            throws SQLException {
        Map<IdempotencyScope, IdempotencyRecord> records = new HashMap<>();
        if (query.idempotencyScopes().isEmpty()) {
            return records;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_IDEMPOTENCY)) {
            for (IdempotencyScope scope : query.idempotencyScopes()) {
                ps.setString(1, scope.accountId());
                ps.setString(2, scope.key());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        records.put(
                                scope,
                                new IdempotencyRecord(
                                        scope.accountId(),
                                        scope.key(),
                                        rs.getLong("amount"),
                                        rs.getString("outcome"),
                                        Optional.ofNullable(rs.getString("spending_id")),
                                        rs.getLong("balance"),
                                        Rows.instant(rs, "created_at")));
                    }
                }
            }
        }
        return records;
    }

    private void write(Connection connection, ChangeSet changes) throws SQLException {
        if (!changes.newAccounts().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(INSERT_ACCOUNT)) {
                for (Account account : changes.newAccounts()) {
                    ps.setString(1, account.id());
                    ps.setString(2, account.name());
                    ps.setString(3, account.planId());
                    ps.setString(4, account.status().wire());
                    ps.setLong(5, account.createdAt().toEpochMilli());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        writeBalancesSpendingsAndLines(connection, changes);
        if (!changes.revertedSpendings().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(MARK_REVERTED)) {
                for (Spending spending : changes.revertedSpendings()) {
                    ps.setLong(1, spending.revertedAt().orElseThrow().toEpochMilli());
                    ps.setString(2, spending.id());
                    ps.addBatch();
                }
                requireEachChangedOneRow(ps.executeBatch());
            }
        }
        if (!changes.idempotencyRecords().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(INSERT_IDEMPOTENCY)) {
                for (IdempotencyRecord record : changes.idempotencyRecords()) {
                    ps.setString(1, record.accountId());
                    ps.setString(2, record.key());
                    ps.setLong(3, record.amount());
                    ps.setString(4, record.outcome());
                    ps.setString(5, record.spendingId().orElse(null));
                    ps.setLong(6, record.balance());
                    ps.setLong(7, record.createdAt().toEpochMilli());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        outbox.append(connection, changes.events(), changes.at());
    }

    /**
     * The account locks make every decision final, so a write that misses its row is a bug: fail
     * the round rather than commit a refund whose spending did not change.
     */
    private static void requireEachChangedOneRow(int[] counts) {
        for (int count : counts) {
            if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
                throw new IllegalStateException("A ledger round reverted a spending that was not active");
            }
        }
    }

    static String status(Spending spending) {
        return spending.reverted() ? "reverted" : "active";
    }

    static @Nullable Long epochMillis(Optional<Instant> instant) {
        return instant.map(Instant::toEpochMilli).orElse(null);
    }
}
