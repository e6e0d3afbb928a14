package dev.pulseledger.accounts;

import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Rows;
import dev.pulseledger.store.Sql;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/**
 * SQL that reads accounts and their ledger, and changes their plan and status. Accounts are opened and
 * credited through the ledger ({@code ledger.write.LedgerWriter}).
 */
public final class AccountStore {
    /** The columns {@link #account(ResultSet)} reads, for queries elsewhere that return accounts. */
    public static final String COLUMNS =
            "id, name, plan_id, balance, status, created_at, period_start, period_end, due_at, pending_plan_id, pending_at";

    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM accounts WHERE id = :id";
    private static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM accounts WHERE id > :after_id ORDER BY id LIMIT :rows";
    private static final String UPDATE_STATUS = "UPDATE accounts SET status = :status WHERE id = :id";

    /**
     * An account's lines before the cursor's line: by time, then sequence, which is sequence order for
     * every line since V181, and one index walk ({@code ledger_entries_account_time}). A cursor that names
     * no line (the first page's) starts at the newest.
     */
    private static final String SELECT_LEDGER =
            "SELECT seq, account_id, kind, amount, balance_after, spending_id, grant_id, reason, created_at"
                    + " FROM ledger_entries WHERE account_id = :account_id"
                    + " AND (created_at, seq) < (COALESCE((SELECT c.created_at FROM ledger_entries c"
                    + " WHERE c.seq = :before_seq), :newest), :before_seq) ORDER BY created_at DESC, seq DESC LIMIT :rows";

    private final Database database;
    private final AccessChangeLog changes;

    public AccountStore(Database database, AccessChangeLog changes) {
        this.database = database;
        this.changes = changes;
    }

    public Optional<Account> find(String id) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("id", id)
                        .map((rs, ctx) -> account(rs))
                        .findOne();
            }
        });
    }

    /** Accounts ordered by id, starting after {@code afterId} ("" for the first page). */
    public Page<Account> list(String afterId, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Account> accounts = sql.createQuery(SELECT_PAGE)
                        .bind("after_id", afterId)
                        .bind("rows", limit + 1)
                        .map((rs, ctx) -> account(rs))
                        .list();
                return Page.of(accounts, limit, Account::id);
            }
        });
    }

    /** Sets active or suspended; false when there is no such account. */
    public boolean changeStatus(String accountId, AccountStatus status) {
        return database.inTransaction(connection -> {
            try (Handle sql = Sql.on(connection)) {
                if (sql.createUpdate(UPDATE_STATUS)
                                .bind("status", status.wire())
                                .bind("id", accountId)
                                .execute()
                        != 1) {
                    return false;
                }
            }
            changes.append(connection, AccessChange.Kind.ACCOUNT, accountId);
            return true;
        });
    }

    /** Ledger entries newest first, starting before sequence {@code beforeSeq}. */
    public Page<LedgerEntry> ledger(String accountId, long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<LedgerEntry> entries = sql.createQuery(SELECT_LEDGER)
                        .bind("account_id", accountId)
                        .bind("before_seq", beforeSeq)
                        .bind("newest", Long.MAX_VALUE)
                        .bind("rows", limit + 1)
                        .map((rs, ctx) -> ledgerEntry(rs))
                        .list();
                return Page.of(entries, limit, entry -> Long.toString(entry.sequence()));
            }
        });
    }

    private static LedgerEntry ledgerEntry(ResultSet rs) throws SQLException {
        return new LedgerEntry(
                rs.getLong("seq"),
                rs.getString("account_id"),
                rs.getString("kind"),
                rs.getLong("amount"),
                rs.getLong("balance_after"),
                Optional.ofNullable(rs.getString("spending_id")),
                Optional.ofNullable(rs.getString("grant_id")),
                Optional.ofNullable(rs.getString("reason")),
                Rows.instant(rs, "created_at"));
    }

    public static Account account(ResultSet rs) throws SQLException {
        return new Account(
                rs.getString("id"),
                rs.getString("name"),
                rs.getString("plan_id"),
                rs.getLong("balance"),
                AccountStatus.fromWire(rs.getString("status")),
                Rows.instant(rs, "created_at"),
                period(rs),
                Rows.instant(rs, "due_at"),
                pendingChange(rs));
    }

    /** The plan change that waits for the period's end, from {@code pending_plan_id} and {@code pending_at}. */
    public static Optional<PendingPlanChange> pendingChange(ResultSet rs) throws SQLException {
        String planId = rs.getString("pending_plan_id");
        Optional<Instant> at = Rows.optionalInstant(rs, "pending_at");
        return planId == null || at.isEmpty() ? Optional.empty() : Optional.of(new PendingPlanChange(planId, at.get()));
    }

    private static Optional<Period> period(ResultSet rs) throws SQLException {
        Optional<Instant> start = Rows.optionalInstant(rs, "period_start");
        Optional<Instant> end = Rows.optionalInstant(rs, "period_end");
        return start.isPresent() && end.isPresent()
                ? Optional.of(new Period(start.get(), end.get()))
                : Optional.empty();
    }
}
