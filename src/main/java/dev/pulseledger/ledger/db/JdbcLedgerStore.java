package dev.pulseledger.ledger.db;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.PendingPlanChange;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.BudgetWindow;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.ChangeSet.AccountPeriod;
import dev.pulseledger.ledger.core.Decision;
import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.IdempotencyRecord;
import dev.pulseledger.ledger.core.LedgerState;
import dev.pulseledger.ledger.core.LedgerState.AccountState;
import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import dev.pulseledger.ledger.core.PlanTerms;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The part of a ledger round that is the same SQL on every database: reading spendings with their
 * grants, plans and idempotency records, inserting new accounts, and the rarer writes (periods,
 * reverts, idempotency records, events). Locking accounts with their live grants and writing
 * balances, spendings, grants and ledger lines differ per database.
 */
abstract sealed class JdbcLedgerStore implements LedgerStore permits PostgresLedgerStore, SqliteLedgerStore {
    /** An account with its plan's terms. */
    static final String LOCKED_COLUMNS = "SELECT a.id, a.balance,"
            + " COALESCE(a.low_balance_threshold, p.low_balance_threshold) AS threshold,"
            + " a.plan_id, p.allowance, p.period, p.rollover,"
            + " a.period_anchor, a.period_start, a.period_end, a.period_granted, a.due_at, a.last_line_at,"
            + " a.pools, p.pools AS plan_pools, a.pending_plan_id, a.pending_at"
            + " FROM accounts a JOIN plans p ON p.id = a.plan_id";

    /**
     * The grants with tokens left, through the index on {@code grants.live} (PostgreSQL V100, SQLite V180),
     * which a spend's update of {@code remaining} leaves alone. Read by a statement of its own once the
     * accounts are locked: on PostgreSQL a statement that waits for a row lock re-reads the locked row but
     * not the rows it joined, which another round may have changed meanwhile.
     */
    static final String LIVE_GRANTS = "SELECT " + GrantRows.COLUMNS + " FROM grants g WHERE g.live";

    private static final NamedSql SELECT_SPENDING =
            NamedSql.parse("SELECT " + SpendingRows.COLUMNS + ", grant_id FROM spendings WHERE id = :id");
    private static final NamedSql SELECT_ALLOCATIONS = NamedSql.parse(
            "SELECT " + ReservationRows.DRAW_COLUMNS + " FROM spending_grants WHERE spending_id = :spending_id");
    private static final NamedSql SELECT_GRANT =
            NamedSql.parse("SELECT " + GrantRows.COLUMNS + " FROM grants g WHERE g.id = :id");
    private static final NamedSql SELECT_SPEND_BALANCE = NamedSql.parse(
            "SELECT balance_after FROM ledger_entries WHERE spending_id = :spending_id AND kind = 'spend'");
    private static final NamedSql SELECT_IDEMPOTENCY =
            NamedSql.parse("SELECT amount, outcome, spending_id, balance, created_at, detail FROM idempotency_keys"
                    + " WHERE account_id = :account_id AND key = :key");
    /**
     * The allowance grants of an account changing plan now (CONTRACT §13) that have not expired or that started
     * in its current period, spent ones too: the change ends each of them, and a new grant's start must not
     * be one of theirs.
     */
    private static final NamedSql SELECT_PERIOD_ALLOWANCES = NamedSql.parse("SELECT " + GrantRows.COLUMNS
            + " FROM grants g WHERE g.account_id = :account_id AND g.kind = 'allowance'"
            + " AND (g.expires_at > :now OR g.period_start >= :period_start)");

    private static final NamedSql SELECT_PLAN =
            NamedSql.parse("SELECT id, allowance, period, rollover, pools AS plan_pools FROM plans WHERE id = :id");
    private static final NamedSql INSERT_ACCOUNT = NamedSql.parse(
            "INSERT INTO accounts (id, name, plan_id, balance, status, created_at, period_anchor, due_at)"
                    + " VALUES (:id, :name, :plan_id, 0, :status, :created_at, :created_at, :created_at)");
    private static final NamedSql UPDATE_PERIOD = NamedSql.parse("UPDATE accounts SET plan_id = :plan_id,"
            + " period_anchor = :period_anchor, period_start = :period_start, period_end = :period_end,"
            + " period_granted = :period_granted, due_at = :due_at, pending_plan_id = :pending_plan_id,"
            + " pending_at = :pending_at WHERE id = :id");
    private static final NamedSql UPDATE_POOLS = NamedSql.parse("UPDATE accounts SET pools = :pools WHERE id = :id");
    private static final NamedSql MARK_REVERTED = NamedSql.parse("UPDATE spendings SET status = :status,"
            + " reverted_amount = :reverted_amount, reverted_at = :reverted_at"
            + " WHERE id = :id AND reverted_amount < :reverted_amount");
    private static final NamedSql INSERT_IDEMPOTENCY = NamedSql.parse(
            "INSERT INTO idempotency_keys (account_id, key, amount, outcome, spending_id, balance, created_at, detail)"
                    + " VALUES (:account_id, :key, :amount, :outcome, :spending_id, :balance, :created_at, :detail)");

    private final Database database;
    private final Outbox outbox;
    private final AccessChangeLog accessChanges;

    JdbcLedgerStore(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        this.database = database;
        this.outbox = outbox;
        this.accessChanges = accessChanges;
    }

    @Override
    public final Decision round(StateQuery query, Duration lockWait, Function<LedgerState, Decision> decide) {
        return database.inTransaction(connection -> {
            LockedReads reads = lockAndRead(connection, query, lockWait);
            LedgerState state = read(connection, query, reads);
            Decision decision = decide.apply(state);
            write(connection, decision.changes(), reads.paidByOneGrant());
            return decision;
        });
    }

    /**
     * Locks the query's accounts (until the transaction ends) and reads what a round reads once they are
     * locked: the accounts, through {@link #readAccounts}, their live grants, through {@link #readGrants}, the
     * budgets of their keys in their windows ({@link KeyBudgetRows}), and the reservations the batch names
     * with what each drew from grants ({@link ReservationRows}), with statements for the whole batch, not one
     * per id. Waits at most {@code lockWait} for a lock held elsewhere, and with zero waits for none (see
     * {@link LedgerStore#round}).
     *
     * @throws AccountsBusyException when {@code lockWait} is zero and some of them were locked elsewhere
     */
    abstract LockedReads lockAndRead(Connection connection, StateQuery query, Duration lockWait) throws SQLException;

    /**
     * Writes the new balances, spendings, grants, allocations and ledger lines, the new and ended
     * reservations, and what earlier draws from grants returned ({@code returned}). When {@code endsRound},
     * nothing is written after them, and a store whose every statement is a round trip (PostgreSQL) may
     * commit with the same message; {@link Connection#commit()} then finds nothing left to do.
     */
    abstract void writeRoundChanges(
            Connection connection, ChangeSet changes, List<Allocation> returned, boolean endsRound) throws SQLException;

    /** An account as locked, with the grants read so far. */
    record LockedAccount(AccountState account, List<Grant> grants) {}

    /**
     * What a round reads with its locks held: the accounts by id, their keys' budgets by key, and the
     * reservations the batch names by id with their draws (by reservation id) and those of them one grant
     * paid ({@link ReservationRows#withSoleGrants}), into which the round's later reads add.
     */
    record LockedReads(
            Map<String, LockedAccount> accounts,
            Map<String, List<BudgetWindow>> budgets,
            Map<String, Reservation> reservations,
            Map<String, List<Allocation>> allocations,
            Set<String> paidByOneGrant) {
        static LockedReads empty() {
            return new LockedReads(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashSet<>());
        }
    }

    /** Reads rows of {@link #LOCKED_COLUMNS}. */
    static void readAccounts(ResultSet rs, Map<String, LockedAccount> accounts) throws SQLException {
        try (rs) {
            while (rs.next()) {
                accounts.put(rs.getString("id"), new LockedAccount(account(rs), new ArrayList<>()));
            }
        }
    }

    /** Reads rows of {@link #LIVE_GRANTS} into their accounts. */
    static void readGrants(ResultSet rs, Map<String, LockedAccount> accounts) throws SQLException {
        try (rs) {
            while (rs.next()) {
                Grant grant = GrantRows.grant(rs).orElseThrow();
                // An account asked for but not locked (none such, or made since) is not decided on.
                LockedAccount owner = accounts.get(grant.accountId());
                if (owner != null) {
                    owner.grants().add(grant);
                }
            }
        }
    }

    private static AccountState account(ResultSet rs) throws SQLException {
        Optional<Instant> start = Rows.optionalInstant(rs, "period_start");
        Optional<Instant> end = Rows.optionalInstant(rs, "period_end");
        return new AccountState(
                rs.getString("id"),
                rs.getLong("balance"),
                Rows.optionalLong(rs, "threshold"),
                planTerms(rs, rs.getString("plan_id")),
                Rows.instant(rs, "period_anchor"),
                start.isPresent() && end.isPresent()
                        ? Optional.of(new Period(start.get(), end.get()))
                        : Optional.empty(),
                rs.getLong("period_granted"),
                Rows.instant(rs, "due_at"),
                Rows.optionalInstant(rs, "last_line_at"),
                List.of(),
                Pools.decodeNames(rs.getString("pools")),
                AccountStore.pendingChange(rs));
    }

    /** A plan's terms from a row with its allowance, period, rollover and plan_pools. */
    private static PlanTerms planTerms(ResultSet rs, String planId) throws SQLException {
        return new PlanTerms(
                planId,
                rs.getLong("allowance"),
                PlanPeriod.fromWire(rs.getString("period")).orElseThrow(),
                rs.getLong("rollover"),
                Pools.decodePlanPools(rs.getString("plan_pools")));
    }

    /**
     * Reads what the round decides on, besides what it read with its locks ({@code reads}); the spendings and
     * reservations it reads that name the one grant that paid them (V160, V292) go into the reads'
     * {@code paidByOneGrant}, whose returns their own rows keep.
     */
    private LedgerState read(Connection connection, StateQuery query, LockedReads reads) throws SQLException {
        Set<String> paidByOneGrant = reads.paidByOneGrant();
        Map<String, LockedAccount> locked = reads.accounts();
        Map<String, Spending> spendings = new HashMap<>();
        Map<String, List<Allocation>> allocations = reads.allocations();
        Map<String, Long> landedSpendBalances = new HashMap<>();
        if (!query.spendingIds().isEmpty()) {
            readSpendings(connection, query, spendings, allocations, paidByOneGrant);
        }
        Map<String, Reservation> reservations = reads.reservations();
        Map<String, Instant> holdsDueAfter = new HashMap<>();
        List<String> dueAccounts = new ArrayList<>();
        for (LockedAccount account : locked.values()) { // a loop: this runs for every round
            if (!account.account().dueAt().isAfter(query.now())) {
                dueAccounts.add(account.account().id());
            }
        }
        if (!dueAccounts.isEmpty()) {
            ReservationRows.readDue(
                    connection, dueAccounts, query.now(), reservations, holdsDueAfter, allocations, paidByOneGrant);
        }
        if (!allocations.isEmpty()) {
            readReturnedGrants(connection, locked, allocations);
        }
        for (String grantId : query.grantIds()) {
            readGrant(connection, locked, grantId);
        }
        for (String accountId : query.allowancesOf()) {
            readPeriodAllowances(connection, locked.get(accountId), query.now());
        }
        if (query.landedSpends()) {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SPEND_BALANCE.sql())) {
                for (String id : spendings.keySet()) {
                    SELECT_SPEND_BALANCE.setString(ps, "spending_id", id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            landedSpendBalances.put(id, rs.getLong(1));
                        }
                    }
                }
            }
        }
        Map<String, AccountState> accounts = new LinkedHashMap<>();
        locked.forEach((id, account) -> accounts.put(id, account.account().withGrants(account.grants())));
        return new LedgerState(
                accounts,
                spendings,
                allocations,
                idempotencyRecords(connection, query),
                landedSpendBalances,
                plans(connection, planIds(query, locked)),
                reservations,
                holdsDueAfter,
                SlaPeriodRows.measured(connection, query.slaPeriods()),
                SlaPeriodRows.revoked(connection, query.grantIds()),
                reads.budgets());
    }

    private static void readSpendings(
            Connection connection,
            StateQuery query,
            Map<String, Spending> spendings,
            Map<String, List<Allocation>> allocations,
            Set<String> paidByOneGrant)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SELECT_SPENDING.sql())) {
            for (String id : query.spendingIds()) {
                SELECT_SPENDING.setString(ps, "id", id);
                Spending spending;
                @Nullable String soleGrant;
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        continue;
                    }
                    spending = SpendingRows.spending(rs);
                    soleGrant = rs.getString("grant_id");
                }
                spendings.put(id, spending);
                if (soleGrant == null) {
                    allocations.put(id, allocations(connection, id));
                } else {
                    paidByOneGrant.add(id);
                    allocations.put(
                            id, List.of(new Allocation(id, soleGrant, spending.amount(), spending.revertedAmount())));
                }
            }
        }
    }

    /** What the spending or reservation {@code id} drew from each grant. */
    static List<Allocation> allocations(Connection connection, String id) throws SQLException {
        try (PreparedStatement drawn = connection.prepareStatement(SELECT_ALLOCATIONS.sql())) {
            SELECT_ALLOCATIONS.setString(drawn, "spending_id", id);
            List<Allocation> list = new ArrayList<>();
            try (ResultSet rs = drawn.executeQuery()) {
                while (rs.next()) {
                    list.add(new Allocation(
                            rs.getString("spending_id"),
                            rs.getString("grant_id"),
                            rs.getLong("amount"),
                            rs.getLong("returned")));
                }
            }
            return list;
        }
    }

    /** Reads the grants a revert may return tokens to that the lock did not read (spent or expired ones). */
    private static void readReturnedGrants(
            Connection connection, Map<String, LockedAccount> locked, Map<String, List<Allocation>> allocations)
            throws SQLException {
        for (List<Allocation> list : allocations.values()) {
            for (Allocation allocation : list) {
                readGrant(connection, locked, allocation.grantId());
            }
        }
    }

    /** Reads a grant the lock did not read (one without tokens left) into its account, if that is locked. */
    private static void readGrant(Connection connection, Map<String, LockedAccount> locked, String grantId)
            throws SQLException {
        boolean known =
                locked.values().stream().anyMatch(a -> a.grants().stream().anyMatch(g -> g.id().equals(grantId)));
        if (known) {
            return;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_GRANT.sql())) {
            SELECT_GRANT.setString(ps, "id", grantId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    Grant grant = GrantRows.grant(rs).orElseThrow();
                    LockedAccount owner = locked.get(grant.accountId());
                    if (owner != null) {
                        owner.grants().add(grant);
                    }
                }
            }
        }
    }

    private static Map<IdempotencyScope, IdempotencyRecord> idempotencyRecords(Connection connection, StateQuery query)
            throws SQLException {
        Map<IdempotencyScope, IdempotencyRecord> records = new HashMap<>();
        if (query.idempotencyScopes().isEmpty()) {
            return records;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_IDEMPOTENCY.sql())) {
            for (IdempotencyScope scope : query.idempotencyScopes()) {
                SELECT_IDEMPOTENCY.setString(ps, "account_id", scope.accountId());
                SELECT_IDEMPOTENCY.setString(ps, "key", scope.key());
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
                                        Rows.instant(rs, "created_at"),
                                        rs.getLong("detail")));
                    }
                }
            }
        }
        return records;
    }

    /** The plans the batch names, and those of the locked accounts' waiting plan changes (their renewal may apply them). */
    private static Set<String> planIds(StateQuery query, Map<String, LockedAccount> locked) {
        Set<String> ids = new LinkedHashSet<>(query.planIds());
        for (LockedAccount account : locked.values()) {
            account.account().pendingChange().ifPresent(change -> ids.add(change.planId()));
        }
        return ids;
    }

    /** Reads the allowance grants of {@link #SELECT_PERIOD_ALLOWANCES} that the lock did not read into the account. */
    private static void readPeriodAllowances(Connection connection, @Nullable LockedAccount account, Instant now)
            throws SQLException {
        if (account == null) {
            return;
        }
        Set<String> known = new HashSet<>();
        account.grants().forEach(g -> known.add(g.id()));
        NamedSql sql = SELECT_PERIOD_ALLOWANCES;
        try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
            sql.setString(ps, "account_id", account.account().id());
            sql.setLong(ps, "now", now.toEpochMilli());
            sql.setLong(
                    ps,
                    "period_start",
                    account.account().period().map(Period::start).orElse(now).toEpochMilli());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Grant grant = GrantRows.grant(rs).orElseThrow();
                    if (known.add(grant.id())) {
                        account.grants().add(grant);
                    }
                }
            }
        }
    }

    private static Map<String, PlanTerms> plans(Connection connection, Set<String> planIds) throws SQLException {
        Map<String, PlanTerms> plans = new HashMap<>();
        if (planIds.isEmpty()) {
            return plans;
        }
        try (PreparedStatement ps = connection.prepareStatement(SELECT_PLAN.sql())) {
            for (String id : planIds) {
                SELECT_PLAN.setString(ps, "id", id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        plans.put(id, planTerms(rs, id));
                    }
                }
            }
        }
        return plans;
    }

    private void write(Connection connection, ChangeSet changes, Set<String> paidByOneGrant) throws SQLException {
        if (!changes.newAccounts().isEmpty()) {
            NamedSql sql = INSERT_ACCOUNT;
            try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
                for (Account account : changes.newAccounts()) {
                    sql.setString(ps, "id", account.id());
                    sql.setString(ps, "name", account.name());
                    sql.setString(ps, "plan_id", account.planId());
                    sql.setString(ps, "status", account.status().wire());
                    sql.setLong(ps, "created_at", account.createdAt().toEpochMilli());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        // Before the common changes, so that these can end the round of a spend with a key too.
        insertIdempotencyRecords(connection, changes.idempotencyRecords());
        List<Spending> reverted = reverted(changes);
        List<Allocation> returned = returned(changes, paidByOneGrant);
        // When nothing follows them, the round's changes may commit it (PostgreSQL): then no statement,
        // and no check that could throw, may come after them.
        boolean endsRound = changes.periods().isEmpty()
                && changes.accountPools().isEmpty()
                && reverted.isEmpty()
                && changes.events().isEmpty()
                && changes.slaPeriods().isEmpty()
                && changes.revocations().isEmpty()
                && changes.budgetNotices().isEmpty()
                && changes.budgetUse().isEmpty();
        writeRoundChanges(connection, changes, returned, endsRound);
        if (!changes.periods().isEmpty()) {
            NamedSql sql = UPDATE_PERIOD;
            try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
                for (AccountPeriod period : changes.periods()) {
                    sql.setString(ps, "plan_id", period.planId());
                    sql.setLong(ps, "period_anchor", period.anchor().toEpochMilli());
                    sql.setNullableLong(
                            ps, "period_start", epochMillis(period.period().map(Period::start)));
                    sql.setNullableLong(
                            ps, "period_end", epochMillis(period.period().map(Period::end)));
                    sql.setLong(ps, "period_granted", period.periodGranted());
                    sql.setLong(ps, "due_at", period.dueAt().toEpochMilli());
                    sql.setString(
                            ps,
                            "pending_plan_id",
                            period.pendingChange()
                                    .map(PendingPlanChange::planId)
                                    .orElse(null));
                    sql.setNullableLong(
                            ps, "pending_at", epochMillis(period.pendingChange().map(PendingPlanChange::at)));
                    sql.setString(ps, "id", period.accountId());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        if (!changes.accountPools().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(UPDATE_POOLS.sql())) {
                for (Map.Entry<String, Set<String>> pools :
                        changes.accountPools().entrySet()) {
                    UPDATE_POOLS.setString(ps, "pools", Pools.encodeNames(pools.getValue()));
                    UPDATE_POOLS.setString(ps, "id", pools.getKey());
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        for (AccountPeriod period : changes.periods()) {
            if (period.planChanged()) {
                // The plan decides the keys' rate limit, which every node caches.
                accessChanges.append(connection, AccessChange.Kind.ACCOUNT, period.accountId());
            }
        }
        if (!reverted.isEmpty()) {
            NamedSql sql = MARK_REVERTED;
            try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
                for (Spending spending : reverted) {
                    sql.setString(ps, "status", status(spending));
                    sql.setLong(ps, "reverted_amount", spending.revertedAmount());
                    sql.setLong(
                            ps,
                            "reverted_at",
                            spending.revertedAt().orElseThrow().toEpochMilli());
                    sql.setString(ps, "id", spending.id());
                    ps.addBatch();
                }
                requireEachChangedOneRow(ps.executeBatch());
            }
        }
        SlaPeriodRows.insert(connection, changes.slaPeriods());
        SlaPeriodRows.insertRevocations(connection, changes.revocations());
        KeyBudgetRows.saveUse(connection, changes.budgetUse());
        KeyBudgetRows.insertNotices(connection, changes.budgetNotices(), changes.at());
        outbox.append(connection, changes.events(), changes.at());
    }

    /** The spendings whose revert the round writes: its own that it reverted too, then earlier ones. */
    private static List<Spending> reverted(ChangeSet changes) {
        List<Spending> reverted = new ArrayList<>(changes.revertedSpendings().size());
        for (Spending spending : changes.newSpendings()) { // a loop: this runs for every round
            if (spending.revertedAmount() > 0) {
                reverted.add(spending);
            }
        }
        reverted.addAll(changes.revertedSpendings());
        return reverted;
    }

    /**
     * The returned allocations whose rows the round updates: a spending or hold paid by one grant keeps what
     * it returned in its own row instead (a spending as its reverted amount, a hold by having ended).
     */
    private static List<Allocation> returned(ChangeSet changes, Set<String> paidByOneGrant) {
        if (changes.returnedAllocations().isEmpty()) {
            return List.of();
        }
        List<Allocation> returned =
                new ArrayList<>(changes.returnedAllocations().size());
        for (Allocation allocation : changes.returnedAllocations()) {
            if (!paidByOneGrant.contains(allocation.spendingId())) {
                returned.add(allocation);
            }
        }
        return returned;
    }

    private static void insertIdempotencyRecords(Connection connection, List<IdempotencyRecord> records)
            throws SQLException {
        if (records.isEmpty()) {
            return;
        }
        NamedSql sql = INSERT_IDEMPOTENCY;
        try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
            for (IdempotencyRecord record : records) {
                sql.setString(ps, "account_id", record.accountId());
                sql.setString(ps, "key", record.key());
                sql.setLong(ps, "amount", record.amount());
                sql.setString(ps, "outcome", record.outcome());
                sql.setString(ps, "spending_id", record.subjectId().orElse(null));
                sql.setLong(ps, "balance", record.balance());
                sql.setLong(ps, "created_at", record.createdAt().toEpochMilli());
                sql.setLong(ps, "detail", record.detail());
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    /**
     * The account locks make every decision final, so a write that misses its row is a bug: fail
     * the round rather than commit a refund whose spending did not change.
     */
    static void requireEachChangedOneRow(int[] counts) {
        for (int count : counts) {
            if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
                throw new IllegalStateException("A ledger round changed a row that was not as it had read it");
            }
        }
    }

    /**
     * The new spendings' and reservations' draws as the stores write them: one paid by one grant names it in
     * its own row ({@code soleGrants}, by spending or reservation id; V160, V292); every other draw is an
     * allocation row.
     */
    record NewDraws(Map<String, String> soleGrants, List<Allocation> rows) {
        static NewDraws of(ChangeSet changes) {
            if (changes.newAllocations().isEmpty()) {
                return new NewDraws(Map.of(), List.of());
            }
            Map<String, Integer> draws = new HashMap<>();
            changes.newAllocations().forEach(a -> draws.merge(a.spendingId(), 1, Integer::sum));
            Set<String> newOwners = new HashSet<>();
            changes.newSpendings().forEach(s -> newOwners.add(s.id()));
            changes.newReservations().forEach(r -> newOwners.add(r.id()));
            Map<String, String> sole = new HashMap<>();
            List<Allocation> rows = new ArrayList<>();
            for (Allocation allocation : changes.newAllocations()) {
                String owner = allocation.spendingId();
                if (newOwners.contains(owner) && draws.getOrDefault(owner, 0) == 1) {
                    sole.put(owner, allocation.grantId());
                } else {
                    rows.add(allocation);
                }
            }
            return new NewDraws(sole, rows);
        }

        /** The one grant that paid the new spending or reservation {@code ownerId}; null when several did. */
        @Nullable
        String soleGrant(String ownerId) {
            return soleGrants.get(ownerId);
        }
    }

    static String status(Spending spending) {
        return spending.reverted() ? "reverted" : "active";
    }

    static @Nullable Long epochMillis(Optional<Instant> instant) {
        return instant.map(Instant::toEpochMilli).orElse(null);
    }
}
