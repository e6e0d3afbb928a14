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
import dev.pulseledger.ledger.db.PostgresLedgerSql.WritePart;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.EnumSet;
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
    LockedReads lockAndRead(Connection connection, StateQuery query, Duration lockWait) throws SQLException {
        LockedReads reads = LockedReads.empty();
        SortedSet<String> ids = query.accountIds();
        boolean reservations = !query.reservationIds().isEmpty();
        if (lockWait.isZero()) {
            NamedSql lock = reservations
                    ? PostgresLedgerSql.LOCK_FREE_AND_READ_RESERVATIONS
                    : PostgresLedgerSql.LOCK_FREE_AND_READ_GRANTS;
            lockAndRead(connection, lock, ids, query, reads, () -> {
                if (reads.accounts().size() < ids.size()) {
                    requireNoneBusy(connection, ids, reads.accounts().keySet());
                }
            });
            return reads;
        }
        // At least 1 ms: a lock_timeout of 0 would wait for ever.
        String replaced = setLockWait(connection, Long.toString(Math.max(1, lockWait.toMillis())));
        NamedSql lock =
                reservations ? PostgresLedgerSql.LOCK_AND_READ_RESERVATIONS : PostgresLedgerSql.LOCK_AND_READ_GRANTS;
        lockAndRead(connection, lock, ids, query, reads, () -> {});
        if (reads.accounts().size() < ids.size()) {
            // A plan change that commits while the lock waits leaves the account out: PostgreSQL checks the
            // new row against the plan row it had joined, which no longer matches. Locked again, it is read
            // with its new plan (an id that no account has stays out); the reservations, read before that
            // lock, are read again after it.
            List<String> missing =
                    ids.stream().filter(id -> !reads.accounts().containsKey(id)).toList();
            lockAndRead(connection, PostgresLedgerSql.LOCK_AND_READ_GRANTS, missing, query, reads, () -> {});
            if (reservations) {
                readReservations(connection, query.reservationIds(), reads);
            }
        }
        // Only the account locks wait this long; every later lock of the round waits as usual.
        setLockWait(connection, replaced);
        return reads;
    }

    private static void readReservations(Connection connection, Collection<String> ids, LockedReads into)
            throws SQLException {
        NamedSql read = PostgresLedgerSql.RESERVATIONS;
        try (PreparedStatement ps = connection.prepareStatement(read.sql())) {
            read.setArray(ps, "reservation_ids", texts(connection, ids.stream()));
            skipToRowsAfterSet(ps, "reservations");
            readReservations(connection, ps, into);
        }
    }

    /**
     * Reads the reservations, the statement's current result, in place of those read before, and then the
     * draws of those that several grants paid.
     */
    private static void readReservations(Connection connection, PreparedStatement ps, LockedReads into)
            throws SQLException {
        into.reservations().clear();
        List<String> paidBySeveral = ReservationRows.readNamed(ps.getResultSet(), into);
        if (paidBySeveral.isEmpty()) {
            return;
        }
        NamedSql draws = PostgresLedgerSql.DRAWS_OF_RESERVATIONS;
        try (PreparedStatement read = connection.prepareStatement(draws.sql())) {
            draws.setArray(read, "reservation_ids", texts(connection, paidBySeveral.stream()));
            skipToRowsAfterSet(read, "draws");
            ReservationRows.draws(read.getResultSet(), paidBySeveral, into.allocations());
        }
    }

    /** Runs a statement that starts with a SET, and moves to the rows that follow it. */
    private static void skipToRowsAfterSet(PreparedStatement ps, String rows) throws SQLException {
        if (ps.execute() || !ps.getMoreResults()) {
            throw new IllegalStateException("The " + rows + " statement returned no rows after its SET");
        }
    }

    /** Checks the locked accounts before their grants are taken in. */
    @FunctionalInterface
    private interface LockCheck {
        void run() throws SQLException;
    }

    /**
     * Locks and reads the accounts {@code ids} (the query's, or those a first lock left out) with their grants
     * and their keys' budgets, and the reservations the batch names when {@code lock} reads them too; a key's
     * budgets read again replace those read before.
     */
    private static void lockAndRead(
            Connection connection,
            NamedSql lock,
            Collection<String> ids,
            StateQuery query,
            LockedReads into,
            LockCheck check)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(lock.sql())) {
            lock.setArray(ps, "ids", texts(connection, ids.stream()));
            KeyBudgetRows.bindWindows(lock, ps, query.now());
            boolean reservations = lock.names().contains("reservation_ids");
            if (reservations) {
                lock.setArray(ps, "reservation_ids", texts(connection, query.reservationIds().stream()));
            }
            skipToRowsAfterSet(ps, "lock");
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
            if (reservations) {
                // The SET that plans the reservation reads for their values, then the reservations.
                if (ps.getMoreResults() || ps.getUpdateCount() == -1 || !ps.getMoreResults()) {
                    throw new IllegalStateException("The lock statement returned no reservations after its SET");
                }
                readReservations(connection, ps, into);
            }
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
     * One round trip whatever the batch size and its commands (a statement per table cost a round trip
     * each), which also commits when it {@code endsRound}; it sends only the parts the round has rows for.
     */
    @Override
    void writeRoundChanges(Connection connection, ChangeSet changes, List<Allocation> returned, boolean endsRound)
            throws SQLException {
        NewDraws draws = NewDraws.of(changes);
        EnumSet<WritePart> parts = EnumSet.noneOf(WritePart.class);
        for (WritePart part : WritePart.values()) {
            if (has(part, changes, draws, returned)) {
                parts.add(part);
            }
        }
        if (parts.isEmpty()) {
            return; // every command was refused, replayed or found nothing to do
        }
        NamedSql sql = PostgresLedgerSql.write(parts, endsRound);
        try (PreparedStatement ps = connection.prepareStatement(sql.sql())) {
            if (sql.names().contains("created_at")) {
                sql.setLong(ps, "created_at", changes.at().toEpochMilli());
            }
            for (WritePart part : parts) {
                bind(part, connection, sql, ps, changes, draws, returned);
            }
            ps.execute();
        }
    }

    /** Whether the round has rows for {@code part}. */
    private static boolean has(WritePart part, ChangeSet changes, NewDraws draws, List<Allocation> returned) {
        return switch (part) {
            case BALANCES -> !changes.balances().isEmpty();
            case SPENDINGS -> !changes.newSpendings().isEmpty();
            case NEW_GRANTS -> !changes.newGrants().isEmpty();
            case CHANGED_GRANTS -> !changes.changedGrants().isEmpty();
            case DRAWS -> !draws.rows().isEmpty();
            case LINES -> !changes.lines().isEmpty();
            case RESERVATIONS -> ReservationRows.writes(changes);
            case RETURNS -> !returned.isEmpty();
        };
    }

    private static void bind(
            WritePart part,
            Connection connection,
            NamedSql sql,
            PreparedStatement ps,
            ChangeSet changes,
            NewDraws draws,
            List<Allocation> returned)
            throws SQLException {
        switch (part) {
            case BALANCES -> {
                sql.setArray(ps, "balance_account_ids", texts(connection, changes.balances().keySet().stream()));
                sql.setArray(ps, "balances", longs(connection, changes.balances().values().stream()));
            }
            case SPENDINGS -> bindSpendings(connection, sql, ps, changes.newSpendings(), draws);
            case NEW_GRANTS -> bindNewGrants(connection, sql, ps, changes.newGrants());
            case CHANGED_GRANTS -> bindChangedGrants(connection, sql, ps, changes.changedGrants());
            case DRAWS -> bindDraws(connection, sql, ps, draws.rows());
            case LINES -> bindLines(connection, sql, ps, changes.lines());
            case RESERVATIONS -> bindReservations(connection, sql, ps, changes, draws);
            case RETURNS -> bindReturns(connection, sql, ps, returned);
        }
    }

    private static void bindSpendings(
            Connection connection, NamedSql sql, PreparedStatement ps, List<Spending> spent, NewDraws draws)
            throws SQLException {
        sql.setArray(ps, "spending_ids", texts(connection, spent.stream().map(Spending::id)));
        sql.setArray(
                ps, "spending_account_ids", texts(connection, spent.stream().map(Spending::accountId)));
        sql.setArray(ps, "spending_amounts", longs(connection, spent.stream().map(Spending::amount)));
        sql.setArray(ps, "spending_statuses", texts(connection, spent.stream().map(JdbcLedgerStore::status)));
        sql.setArray(
                ps, "spending_reverted_ats", longs(connection, spent.stream().map(s -> epochMillis(s.revertedAt()))));
        sql.setArray(ps, "spending_grant_ids", texts(connection, spent.stream().map(s -> draws.soleGrant(s.id()))));
        sql.setArray(ps, "spending_pools", namedPools(connection, spent.stream().map(Spending::pool)));
        sql.setArray(
                ps,
                "spending_key_ids",
                texts(
                        connection,
                        spent.stream().map(s -> s.charge().map(KeyCharge::keyId).orElse(null))));
        sql.setArray(
                ps,
                "spending_key_used_ats",
                longs(connection, spent.stream().map(s -> epochMillis(s.charge().map(KeyCharge::at)))));
    }

    private static void bindNewGrants(Connection connection, NamedSql sql, PreparedStatement ps, List<Grant> created)
            throws SQLException {
        sql.setArray(ps, "grant_ids", texts(connection, created.stream().map(Grant::id)));
        sql.setArray(ps, "grant_account_ids", texts(connection, created.stream().map(Grant::accountId)));
        sql.setArray(
                ps,
                "grant_kinds",
                texts(connection, created.stream().map(g -> g.kind().wire())));
        sql.setArray(ps, "grant_amounts", longs(connection, created.stream().map(Grant::amount)));
        sql.setArray(ps, "grant_remainings", longs(connection, created.stream().map(Grant::remaining)));
        sql.setArray(ps, "grant_expireds", longs(connection, created.stream().map(Grant::expired)));
        sql.setArray(ps, "grant_expires_ats", longs(connection, created.stream().map(g -> epochMillis(g.expiresAt()))));
        sql.setArray(
                ps, "grant_period_starts", longs(connection, created.stream().map(g -> epochMillis(g.periodStart()))));
        sql.setArray(ps, "grant_pools", namedPools(connection, created.stream().map(Grant::pool)));
    }

    private static void bindChangedGrants(
            Connection connection, NamedSql sql, PreparedStatement ps, List<Grant> changed) throws SQLException {
        sql.setArray(ps, "changed_grant_ids", texts(connection, changed.stream().map(Grant::id)));
        sql.setArray(
                ps, "changed_remainings", longs(connection, changed.stream().map(Grant::remaining)));
        sql.setArray(ps, "changed_expireds", longs(connection, changed.stream().map(Grant::expired)));
        sql.setArray(
                ps, "changed_expires_ats", longs(connection, changed.stream().map(g -> epochMillis(g.expiresAt()))));
    }

    private static void bindDraws(Connection connection, NamedSql sql, PreparedStatement ps, List<Allocation> drawn)
            throws SQLException {
        sql.setArray(ps, "draw_spending_ids", texts(connection, drawn.stream().map(Allocation::spendingId)));
        sql.setArray(ps, "draw_grant_ids", texts(connection, drawn.stream().map(Allocation::grantId)));
        sql.setArray(ps, "draw_amounts", longs(connection, drawn.stream().map(Allocation::amount)));
        sql.setArray(ps, "draw_returneds", longs(connection, drawn.stream().map(Allocation::returned)));
    }

    private static void bindLines(Connection connection, NamedSql sql, PreparedStatement ps, List<LedgerLine> lines)
            throws SQLException {
        sql.setArray(ps, "line_account_ids", texts(connection, lines.stream().map(LedgerLine::accountId)));
        sql.setArray(
                ps,
                "line_kinds",
                texts(connection, lines.stream().map(l -> l.kind().wire())));
        sql.setArray(ps, "line_amounts", longs(connection, lines.stream().map(LedgerLine::amount)));
        sql.setArray(ps, "line_balance_afters", longs(connection, lines.stream().map(LedgerLine::balanceAfter)));
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
    }

    /** What earlier draws returned, and how many rows that must change. */
    private static void bindReturns(
            Connection connection, NamedSql sql, PreparedStatement ps, List<Allocation> returned) throws SQLException {
        sql.setArray(
                ps, "returned_spending_ids", texts(connection, returned.stream().map(Allocation::spendingId)));
        sql.setArray(
                ps, "returned_grant_ids", texts(connection, returned.stream().map(Allocation::grantId)));
        sql.setArray(ps, "returneds", longs(connection, returned.stream().map(Allocation::returned)));
        sql.setLong(ps, "returned_count", returned.size());
    }

    /** Binds the arrays of the new reservations and the ended ones, and how many end. */
    private static void bindReservations(
            Connection connection, NamedSql sql, PreparedStatement ps, ChangeSet changes, NewDraws draws)
            throws SQLException {
        List<Reservation> made = changes.newReservations();
        sql.setArray(ps, "new_ids", texts(connection, made.stream().map(Reservation::id)));
        sql.setArray(ps, "new_account_ids", texts(connection, made.stream().map(Reservation::accountId)));
        sql.setArray(ps, "new_amounts", longs(connection, made.stream().map(Reservation::amount)));
        sql.setArray(
                ps,
                "new_statuses",
                texts(connection, made.stream().map(r -> r.status().wire())));
        sql.setArray(
                ps,
                "new_created_ats",
                longs(connection, made.stream().map(r -> r.createdAt().toEpochMilli())));
        sql.setArray(
                ps,
                "new_expires_ats",
                longs(connection, made.stream().map(r -> r.expiresAt().toEpochMilli())));
        bindEnds(connection, sql, ps, "new_", made);
        sql.setArray(ps, "new_pools", texts(connection, made.stream().map(Reservation::pool)));
        sql.setArray(
                ps,
                "new_key_ids",
                texts(connection, made.stream().map(r -> r.keyId().orElse(null))));
        sql.setArray(ps, "new_grant_ids", texts(connection, made.stream().map(r -> draws.soleGrant(r.id()))));
        List<Reservation> ended = changes.endedReservations();
        sql.setArray(ps, "ended_ids", texts(connection, ended.stream().map(Reservation::id)));
        sql.setArray(
                ps,
                "ended_statuses",
                texts(connection, ended.stream().map(r -> r.status().wire())));
        bindEnds(connection, sql, ps, "ended_", ended);
        sql.setLong(ps, "ended_count", ended.size());
    }

    /** Binds the arrays of settled_amount, spending_id, ended_at and end_balance, named with {@code prefix}. */
    private static void bindEnds(
            Connection connection, NamedSql sql, PreparedStatement ps, String prefix, List<Reservation> rows)
            throws SQLException {
        sql.setArray(
                ps,
                prefix + "settled_amounts",
                longs(connection, rows.stream().map(r -> r.settledAmount().orElse(null))));
        sql.setArray(
                ps,
                prefix + "spending_ids",
                texts(connection, rows.stream().map(r -> r.spendingId().orElse(null))));
        sql.setArray(ps, prefix + "ended_ats", longs(connection, rows.stream().map(r -> epochMillis(r.endedAt()))));
        sql.setArray(
                ps,
                prefix + "end_balances",
                longs(connection, rows.stream().map(r -> r.endBalance().orElse(null))));
    }
}
