package dev.pulseledger.ledger.db;

import static dev.pulseledger.store.PgArrays.longs;
import static dev.pulseledger.store.PgArrays.texts;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.BudgetWindow;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.KeyCharge;
import dev.pulseledger.ledger.core.LedgerLine;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.stream.Stream;

/**
 * The ledger on PostgreSQL: a round locks its accounts with one {@code SELECT … FOR UPDATE}, which a
 * writer's batch runs with {@code SKIP LOCKED} so that it never waits for an account locked elsewhere, and
 * reads their live grants in the same round trip; it writes its balances, spendings, grants, allocations
 * and ledger lines as arrays in one statement, so a batch costs the same few round trips whatever its size.
 */
final class PostgresLedgerStore extends JdbcLedgerStore {
    PostgresLedgerStore(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        super(database, outbox, accessChanges);
    }

    @Override
    Map<String, LockedAccount> lockAccounts(
            Connection connection, StateQuery query, Duration lockWait, Map<String, List<BudgetWindow>> budgets)
            throws SQLException {
        Map<String, LockedAccount> accounts = new HashMap<>();
        SortedSet<String> ids = query.accountIds();
        Locked into = new Locked(query, accounts, budgets);
        if (lockWait.isZero()) {
            lockAndRead(connection, PostgresLedgerSql.LOCK_FREE_AND_READ_GRANTS, ids, into, () -> {
                if (accounts.size() < ids.size()) {
                    requireNoneBusy(connection, ids, accounts.keySet());
                }
            });
        } else {
            // At least 1 ms: a lock_timeout of 0 would wait for ever.
            String replaced = setLockWait(connection, Long.toString(Math.max(1, lockWait.toMillis())));
            lockAndRead(connection, PostgresLedgerSql.LOCK_AND_READ_GRANTS, ids, into, () -> {});
            if (accounts.size() < ids.size()) {
                // A plan change that commits while the lock waits leaves the account out: PostgreSQL checks the
                // new row against the plan row it had joined, which no longer matches. Locked again, it is read
                // with its new plan (an id that no account has stays out).
                List<String> missing =
                        ids.stream().filter(id -> !accounts.containsKey(id)).toList();
                lockAndRead(connection, PostgresLedgerSql.LOCK_AND_READ_GRANTS, missing, into, () -> {});
            }
            // Only the account locks wait this long; every later lock of the round waits as usual.
            setLockWait(connection, replaced);
        }
        return accounts;
    }

    @Override
    void readReservations(
            Connection connection,
            Collection<String> ids,
            Map<String, Reservation> reservations,
            Map<String, List<Allocation>> allocations)
            throws SQLException {
        planEachTime(connection);
        Array idArray = texts(connection, ids.stream());
        try (PreparedStatement ps = connection.prepareStatement(PostgresLedgerSql.RESERVATIONS_AND_DRAWS)) {
            ps.setArray(1, idArray);
            ps.setArray(2, idArray);
            if (!ps.execute()) {
                throw new IllegalStateException("The reservations statement returned no rows result");
            }
            Map<String, Reservation> named = new HashMap<>();
            ReservationRows.reservations(ps.getResultSet(), named);
            if (!ps.getMoreResults()) {
                throw new IllegalStateException("The reservations statement returned no draws result");
            }
            ReservationRows.draws(ps.getResultSet(), named.keySet(), allocations);
            reservations.putAll(named);
        }
    }

    @Override
    void writeReservations(Connection connection, ChangeSet changes) throws SQLException {
        List<Reservation> made = changes.newReservations();
        List<Reservation> ended = changes.endedReservations();
        planEachTime(connection);
        try (PreparedStatement ps = connection.prepareStatement(PostgresLedgerSql.WRITE_RESERVATIONS)) {
            int i = 0;
            ps.setArray(++i, texts(connection, made.stream().map(Reservation::id)));
            ps.setArray(++i, texts(connection, made.stream().map(Reservation::accountId)));
            ps.setArray(++i, longs(connection, made.stream().map(Reservation::amount)));
            ps.setArray(++i, texts(connection, made.stream().map(r -> r.status().wire())));
            ps.setArray(
                    ++i, longs(connection, made.stream().map(r -> r.createdAt().toEpochMilli())));
            ps.setArray(
                    ++i, longs(connection, made.stream().map(r -> r.expiresAt().toEpochMilli())));
            i = setEnds(connection, ps, i, made);
            ps.setArray(++i, texts(connection, made.stream().map(Reservation::pool)));
            ps.setArray(++i, texts(connection, made.stream().map(r -> r.keyId().orElse(null))));
            ps.setArray(++i, texts(connection, ended.stream().map(Reservation::id)));
            ps.setArray(
                    ++i, texts(connection, ended.stream().map(r -> r.status().wire())));
            setEnds(connection, ps, i, ended);
            if (ps.executeUpdate() != ended.size()) {
                throw new IllegalStateException("A reservation ended twice");
            }
        }
    }

    /** Sets the arrays of settled_amount, spending_id, ended_at and end_balance after {@code index}; returns the last. */
    private static int setEnds(Connection connection, PreparedStatement ps, int index, List<Reservation> rows)
            throws SQLException {
        int i = index;
        ps.setArray(
                ++i, longs(connection, rows.stream().map(r -> r.settledAmount().orElse(null))));
        ps.setArray(++i, texts(connection, rows.stream().map(r -> r.spendingId().orElse(null))));
        ps.setArray(++i, longs(connection, rows.stream().map(r -> epochMillis(r.endedAt()))));
        ps.setArray(++i, longs(connection, rows.stream().map(r -> r.endBalance().orElse(null))));
        return i;
    }

    /** Checks the locked accounts before their grants are taken in. */
    @FunctionalInterface
    private interface LockCheck {
        void run() throws SQLException;
    }

    /** What a lock statement is for, and where it reads to: the accounts and their keys' budgets. */
    private record Locked(
            StateQuery query, Map<String, LockedAccount> accounts, Map<String, List<BudgetWindow>> budgets) {}

    /**
     * Locks and reads the accounts {@code ids} (the query's, or those a first lock left out) with their grants
     * and their keys' budgets; a key's budgets read again replace those read before.
     */
    private static void lockAndRead(
            Connection connection, NamedSql lock, Collection<String> ids, Locked into, LockCheck check)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(lock.sql())) {
            lock.setArray(ps, "ids", texts(connection, ids.stream()));
            KeyBudgetRows.bindWindows(lock, ps, into.query().now());
            if (ps.execute() || !ps.getMoreResults()) { // the SET comes first, with no rows
                throw new IllegalStateException("The lock statement returned no accounts result after its SET");
            }
            readAccounts(ps.getResultSet(), into.accounts());
            check.run();
            if (!ps.getMoreResults()) {
                throw new IllegalStateException("The lock statement returned no grants result");
            }
            readGrants(ps.getResultSet(), into.accounts());
            if (!ps.getMoreResults()) {
                throw new IllegalStateException("The lock statement returned no budgets result");
            }
            Map<String, List<BudgetWindow>> budgets = new HashMap<>();
            KeyBudgetRows.read(ps.getResultSet(), budgets);
            into.budgets().putAll(budgets);
        }
    }

    /** An id the lock left out is an account locked elsewhere, or one that does not exist (yet). */
    private static void requireNoneBusy(Connection connection, SortedSet<String> ids, Set<String> locked)
            throws SQLException {
        Set<String> busy = new HashSet<>();
        NamedSql existing = PostgresLedgerSql.EXISTING;
        try (PreparedStatement ps = connection.prepareStatement(existing.sql())) {
            existing.setArray(ps, "ids", texts(connection, ids.stream().filter(id -> !locked.contains(id))));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    busy.add(rs.getString(1));
                }
            }
        }
        if (!busy.isEmpty()) {
            throw new AccountsBusyException(busy);
        }
    }

    /** The rows' pools, or none when every row is in the {@code default} pool (see {@link PostgresLedgerSql}). */
    private static Array namedPools(Connection connection, Stream<String> pools) throws SQLException {
        List<String> all = pools.toList();
        boolean allDefault = all.stream().allMatch(Pools.DEFAULT::equals);
        return texts(connection, allDefault ? Stream.empty() : all.stream());
    }

    /** See {@link PostgresLedgerSql#PLAN_EACH_TIME}: for the rest of the round. */
    private static void planEachTime(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(PostgresLedgerSql.PLAN_EACH_TIME);
        }
    }

    /** Sets this transaction's wait for a lock; returns the wait it replaced. */
    private static String setLockWait(Connection connection, String millis) throws SQLException {
        NamedSql setLockWait = PostgresLedgerSql.SET_LOCK_WAIT;
        try (PreparedStatement ps = connection.prepareStatement(setLockWait.sql())) {
            setLockWait.setString(ps, "millis", millis);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getString("replaced");
            }
        }
    }

    /**
     * One round trip whatever the batch size (a statement per table cost a round trip each), which also
     * commits when it {@code endsRound}.
     */
    @Override
    void writeCommonChanges(Connection connection, ChangeSet changes, boolean endsRound) throws SQLException {
        if (changes.lines().isEmpty()
                && changes.newGrants().isEmpty()
                && changes.changedGrants().isEmpty()) {
            return; // every command was refused, replayed or found nothing to do
        }
        NewDraws draws = NewDraws.of(changes);
        NamedSql sql = endsRound ? PostgresLedgerSql.WRITE_AND_COMMIT : PostgresLedgerSql.WRITE;
        try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
            sql.setLong(ps, "created_at", changes.at().toEpochMilli());
            sql.setArray(ps, "balance_account_ids", texts(connection, changes.balances().keySet().stream()));
            sql.setArray(ps, "balances", longs(connection, changes.balances().values().stream()));
            List<Spending> spent = changes.newSpendings();
            sql.setArray(ps, "spending_ids", texts(connection, spent.stream().map(Spending::id)));
            sql.setArray(
                    ps, "spending_account_ids", texts(connection, spent.stream().map(Spending::accountId)));
            sql.setArray(
                    ps, "spending_amounts", longs(connection, spent.stream().map(Spending::amount)));
            sql.setArray(
                    ps, "spending_statuses", texts(connection, spent.stream().map(JdbcLedgerStore::status)));
            sql.setArray(
                    ps,
                    "spending_reverted_ats",
                    longs(connection, spent.stream().map(s -> epochMillis(s.revertedAt()))));
            sql.setArray(
                    ps, "spending_grant_ids", texts(connection, spent.stream().map(draws::soleGrant)));
            sql.setArray(
                    ps, "spending_pools", namedPools(connection, spent.stream().map(Spending::pool)));
            sql.setArray(
                    ps,
                    "spending_key_ids",
                    texts(
                            connection,
                            spent.stream()
                                    .map(s -> s.charge().map(KeyCharge::keyId).orElse(null))));
            sql.setArray(
                    ps,
                    "spending_key_used_ats",
                    longs(
                            connection,
                            spent.stream().map(s -> epochMillis(s.charge().map(KeyCharge::at)))));
            List<Grant> created = changes.newGrants();
            sql.setArray(ps, "grant_ids", texts(connection, created.stream().map(Grant::id)));
            sql.setArray(
                    ps, "grant_account_ids", texts(connection, created.stream().map(Grant::accountId)));
            sql.setArray(
                    ps,
                    "grant_kinds",
                    texts(connection, created.stream().map(g -> g.kind().wire())));
            sql.setArray(ps, "grant_amounts", longs(connection, created.stream().map(Grant::amount)));
            sql.setArray(
                    ps, "grant_remainings", longs(connection, created.stream().map(Grant::remaining)));
            sql.setArray(
                    ps, "grant_expireds", longs(connection, created.stream().map(Grant::expired)));
            sql.setArray(
                    ps, "grant_expires_ats", longs(connection, created.stream().map(g -> epochMillis(g.expiresAt()))));
            sql.setArray(
                    ps,
                    "grant_period_starts",
                    longs(connection, created.stream().map(g -> epochMillis(g.periodStart()))));
            sql.setArray(
                    ps, "grant_pools", namedPools(connection, created.stream().map(Grant::pool)));
            List<Grant> changed = changes.changedGrants();
            sql.setArray(
                    ps, "changed_grant_ids", texts(connection, changed.stream().map(Grant::id)));
            sql.setArray(
                    ps, "changed_remainings", longs(connection, changed.stream().map(Grant::remaining)));
            sql.setArray(
                    ps, "changed_expireds", longs(connection, changed.stream().map(Grant::expired)));
            sql.setArray(
                    ps,
                    "changed_expires_ats",
                    longs(connection, changed.stream().map(g -> epochMillis(g.expiresAt()))));
            List<Allocation> drawn = draws.rows();
            sql.setArray(
                    ps, "draw_spending_ids", texts(connection, drawn.stream().map(Allocation::spendingId)));
            sql.setArray(ps, "draw_grant_ids", texts(connection, drawn.stream().map(Allocation::grantId)));
            sql.setArray(ps, "draw_amounts", longs(connection, drawn.stream().map(Allocation::amount)));
            sql.setArray(ps, "draw_returneds", longs(connection, drawn.stream().map(Allocation::returned)));
            List<LedgerLine> lines = changes.lines();
            sql.setArray(
                    ps, "line_account_ids", texts(connection, lines.stream().map(LedgerLine::accountId)));
            sql.setArray(
                    ps,
                    "line_kinds",
                    texts(connection, lines.stream().map(l -> l.kind().wire())));
            sql.setArray(ps, "line_amounts", longs(connection, lines.stream().map(LedgerLine::amount)));
            sql.setArray(
                    ps, "line_balance_afters", longs(connection, lines.stream().map(LedgerLine::balanceAfter)));
            sql.setArray(
                    ps,
                    "line_spending_ids",
                    texts(connection, lines.stream().map(l -> l.spendingId().orElse(null))));
            sql.setArray(
                    ps,
                    "line_grant_ids",
                    texts(connection, lines.stream().map(l -> l.grantId().orElse(null))));
            sql.setArray(
                    ps,
                    "line_reasons",
                    texts(connection, lines.stream().map(l -> l.reason().orElse(null))));
            sql.setArray(ps, "line_pools", namedPools(connection, lines.stream().map(LedgerLine::pool)));
            ps.execute();
        }
    }
}
