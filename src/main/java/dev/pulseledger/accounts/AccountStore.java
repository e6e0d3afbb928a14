package dev.pulseledger.accounts;

import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL for accounts, operator credits and the ledger they read back. */
public final class AccountStore {
    /** The columns {@link #account(ResultSet)} reads, for queries elsewhere that return accounts. */
    public static final String COLUMNS = "id, name, plan_id, balance, status, created_at";

    private static final String INSERT = "INSERT INTO accounts (" + COLUMNS + ") VALUES (?, ?, ?, ?, 'active', ?)";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM accounts WHERE id = ?";
    private static final String SELECT_PAGE = "SELECT " + COLUMNS + " FROM accounts WHERE id > ? ORDER BY id LIMIT ?";
    private static final String SELECT_BALANCE = "SELECT balance FROM accounts WHERE id = ?";
    private static final String UPDATE_PLAN = "UPDATE accounts SET plan_id = ? WHERE id = ?";
    private static final String UPDATE_STATUS = "UPDATE accounts SET status = ? WHERE id = ?";
    private static final String CREDIT =
            "UPDATE accounts SET balance = balance + ? WHERE id = ? AND balance <= ? RETURNING balance";
    private static final String EXISTS = "SELECT 1 FROM accounts WHERE id = ?";

    /** The most tokens one account may hold: far from overflow, far beyond any real use. */
    public static final long MAX_BALANCE = 1_000_000_000_000_000L;

    private static final String SELECT_LEDGER =
            "SELECT seq, account_id, kind, amount, balance_after, spending_id, reason, created_at"
                    + " FROM ledger_entries WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?";

    private final Database database;

    public AccountStore(Database database) {
        this.database = database;
    }

    /** Outcome of changing an account's plan. */
    public enum PlanChange {
        CHANGED,
        UNKNOWN_PLAN,
        UNKNOWN_ACCOUNT
    }

    /** Creates the account and, for a positive opening balance, its first ledger entry. */
    public Optional<Account> create(Account account) {
        return database.inTransaction(connection -> {
            if (PlanStore.find(connection, account.planId()).isEmpty()) {
                return Optional.empty();
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                ps.setString(1, account.id());
                ps.setString(2, account.name());
                ps.setString(3, account.planId());
                ps.setLong(4, account.balance());
                ps.setLong(5, account.createdAt().toEpochMilli());
                ps.executeUpdate();
            }
            if (account.balance() > 0) {
                try (LedgerWriter ledger = new LedgerWriter(connection)) {
                    ledger.add(
                            account.id(),
                            "credit",
                            account.balance(),
                            account.balance(),
                            Optional.empty(),
                            Optional.of("opening balance"),
                            account.createdAt());
                    ledger.flush();
                }
            }
            return Optional.of(account);
        });
    }

    public Optional<Account> find(String id) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(account(rs)) : Optional.empty();
                }
            }
        });
    }

    /** Accounts ordered by id, starting after {@code afterId} ("" for the first page). */
    public Page<Account> list(String afterId, int limit) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_PAGE)) {
                ps.setString(1, afterId);
                ps.setInt(2, limit + 1);
                List<Account> accounts = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        accounts.add(account(rs));
                    }
                }
                return Page.of(accounts, limit, Account::id);
            }
        });
    }

    /** The exact balance now, read from the database (never cached). */
    public Optional<Long> balance(String accountId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_BALANCE)) {
                ps.setString(1, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
                }
            }
        });
    }

    public PlanChange changePlan(String accountId, String planId) {
        return database.inTransaction(connection -> {
            if (PlanStore.find(connection, planId).isEmpty()) {
                return PlanChange.UNKNOWN_PLAN;
            }
            return updateOne(connection, UPDATE_PLAN, planId, accountId)
                    ? PlanChange.CHANGED
                    : PlanChange.UNKNOWN_ACCOUNT;
        });
    }

    /** Sets active or suspended; false when there is no such account. */
    public boolean changeStatus(String accountId, AccountStatus status) {
        return database.inTransaction(connection -> updateOne(connection, UPDATE_STATUS, status.wire(), accountId));
    }

    /** Outcome of granting tokens. */
    public sealed interface Credit {
        record Credited(long balance) implements Credit {}

        record AccountNotFound() implements Credit {}

        record BalanceLimitReached() implements Credit {}
    }

    /** Adds tokens and writes the credit entry in one transaction. */
    public Credit credit(String accountId, long amount, String reason, Instant at) {
        return database.inTransaction(connection -> {
            long balance;
            try (PreparedStatement ps = connection.prepareStatement(CREDIT)) {
                ps.setLong(1, amount);
                ps.setString(2, accountId);
                ps.setLong(3, MAX_BALANCE - amount);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return exists(connection, accountId)
                                ? new Credit.BalanceLimitReached()
                                : new Credit.AccountNotFound();
                    }
                    balance = rs.getLong(1);
                }
            }
            try (LedgerWriter ledger = new LedgerWriter(connection)) {
                ledger.add(accountId, "credit", amount, balance, Optional.empty(), Optional.of(reason), at);
                ledger.flush();
            }
            return new Credit.Credited(balance);
        });
    }

    private static boolean exists(Connection connection, String accountId) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(EXISTS)) {
            ps.setString(1, accountId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next();
            }
        }
    }

    /** Ledger entries newest first, starting before sequence {@code beforeSeq}. */
    public Page<LedgerEntry> ledger(String accountId, long beforeSeq, int limit) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_LEDGER)) {
                ps.setString(1, accountId);
                ps.setLong(2, beforeSeq);
                ps.setInt(3, limit + 1);
                List<LedgerEntry> entries = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        entries.add(new LedgerEntry(
                                rs.getLong("seq"),
                                rs.getString("account_id"),
                                rs.getString("kind"),
                                rs.getLong("amount"),
                                rs.getLong("balance_after"),
                                Optional.ofNullable(rs.getString("spending_id")),
                                Optional.ofNullable(rs.getString("reason")),
                                Rows.instant(rs, "created_at")));
                    }
                }
                return Page.of(entries, limit, entry -> Long.toString(entry.sequence()));
            }
        });
    }

    private static boolean updateOne(Connection connection, String sql, String value, String id) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, value);
            ps.setString(2, id);
            return ps.executeUpdate() == 1;
        }
    }

    public static Account account(ResultSet rs) throws SQLException {
        return new Account(
                rs.getString("id"),
                rs.getString("name"),
                rs.getString("plan_id"),
                rs.getLong("balance"),
                AccountStatus.fromWire(rs.getString("status")),
                Rows.instant(rs, "created_at"));
    }
}
