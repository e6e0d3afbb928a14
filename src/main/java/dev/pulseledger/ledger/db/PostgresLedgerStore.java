package dev.pulseledger.ledger.db;

import static dev.pulseledger.store.PgArrays.longs;
import static dev.pulseledger.store.PgArrays.texts;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.LedgerLine;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.store.Database;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;

/**
 * The ledger on PostgreSQL: a round locks its accounts with one {@code SELECT … FOR UPDATE}, which a
 * writer's batch runs with {@code SKIP LOCKED} so that it never waits for an account locked elsewhere, and
 * reads their live grants in the same round trip; it writes its balances, spendings, grants, allocations
 * and ledger lines as arrays in one statement, so a batch costs the same few round trips whatever its size.
 */
final class PostgresLedgerStore extends JdbcLedgerStore {
    private static final String LOCK_MANY = LOCKED_COLUMNS + " WHERE a.id = ANY (?) ORDER BY a.id FOR UPDATE OF a";
    /** Leaves out, without waiting, the rows another transaction has locked. */
    private static final String LOCK_FREE_ONES = LOCK_MANY + " SKIP LOCKED";

    private static final String EXISTING = "SELECT id FROM accounts WHERE id = ANY (?)";
    /** The wait for a lock, for this transaction only; returns the wait it replaced. */
    private static final String SET_LOCK_WAIT =
            "SELECT current_setting('lock_timeout') AS replaced, set_config('lock_timeout', ?, true)";

    /**
     * Sent before the lock, in its round trip: every statement of the round then runs on the plan kept for
     * it, instead of being planned again. Left to itself PostgreSQL plans a statement that takes an array
     * ({@code = ANY (?)}, {@code unnest}) afresh each time, as the plan for the array's real length always
     * looks cheaper than one for an unknown length; that planning was ~7 µs of the database's CPU per spend
     * (PERFORMANCE.md, session 9). Each statement here looks rows up by key, which one plan serves for any
     * length.
     */
    private static final String REUSE_PLANS = "SET LOCAL plan_cache_mode = force_generic_plan;\n";

    /**
     * {@link #LIVE_GRANTS} of the batch's accounts, sent with the lock, in the same round trip: each
     * statement takes its snapshot when it starts, so the grants are read after the locks are held, as the
     * round that held one last committed them.
     */
    private static final String GRANTS_OF_MANY = ";\n" + LIVE_GRANTS + " AND g.account_id = ANY (?)";

    /** WITH ORDINALITY keeps the queue's order, so sequence numbers follow it as they do on SQLite. */
    private static final String WRITE_CHANGES = """
            WITH batch AS (SELECT ?::bigint AS created_at),
            balances AS (
                UPDATE accounts a SET balance = c.balance, last_line_at = batch.created_at
                FROM batch, unnest(?::text[], ?::bigint[]) AS c (id, balance)
                WHERE a.id = c.id),
            new_spendings AS (
                INSERT INTO spendings (id, account_id, amount, status, created_at, reverted_at, grant_id)
                SELECT s.id, s.account_id, s.amount, s.status, batch.created_at, s.reverted_at, s.grant_id
                FROM batch, unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::text[])
                    WITH ORDINALITY AS s (id, account_id, amount, status, reverted_at, grant_id, position)
                ORDER BY s.position),
            new_grants AS (
                INSERT INTO grants (id, account_id, kind, amount, remaining, expired, expires_at, period_start,
                    created_at)
                SELECT n.id, n.account_id, n.kind, n.amount, n.remaining, n.expired, n.expires_at, n.period_start,
                    batch.created_at
                FROM batch, unnest(?::text[], ?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
                    ?::bigint[]) AS n (id, account_id, kind, amount, remaining, expired, expires_at, period_start)),
            changed_grants AS (
                UPDATE grants g SET remaining = c.remaining, expired = c.expired, expires_at = c.expires_at
                FROM unnest(?::text[], ?::bigint[], ?::bigint[], ?::bigint[]) AS c (id, remaining, expired, expires_at)
                WHERE g.id = c.id),
            new_allocations AS (
                INSERT INTO spending_grants (spending_id, grant_id, amount, returned)
                SELECT * FROM unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[]))
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, grant_id, reason,
                created_at)
            SELECT l.account_id, l.kind, l.amount, l.balance_after, l.spending_id, l.grant_id, l.reason,
                batch.created_at
            FROM batch, unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[], ?::text[])
                WITH ORDINALITY AS l (account_id, kind, amount, balance_after, spending_id, grant_id, reason, position)
            ORDER BY l.position""";

    /**
     * {@link #WRITE_CHANGES} and the commit in one round trip: a separate COMMIT cost the writer a sixth of
     * a round's time, mostly waiting for the backend to be scheduled again. Should the write fail, the
     * server skips the COMMIT and the caller rolls back as usual.
     */
    private static final String WRITE_CHANGES_AND_COMMIT = WRITE_CHANGES + ";\nCOMMIT";

    /**
     * The reservations a batch names and their draws from grants, two statements sent in one round trip
     * (a settle's round read them with two statements per reservation, a round trip each).
     */
    private static final String RESERVATIONS_AND_DRAWS = "SELECT " + ReservationRows.COLUMNS
            + " FROM reservations WHERE id = ANY (?);\n"
            + "SELECT " + ReservationRows.DRAW_COLUMNS
            + " FROM spending_grants WHERE spending_id = ANY (?) ORDER BY spending_id, grant_id";

    /**
     * The batch's new reservations and the earlier ones it ended, in one statement (a batch of statements
     * each). Its count is the ended ones': each must still have been held, as the account lock makes the
     * core's decision final. A reservation made and ended in one batch is only inserted, as it ended; the
     * new ones take their sequence numbers in the queue's order, as on SQLite.
     */
    private static final String WRITE_RESERVATIONS = """
            WITH new_reservations AS (
                INSERT INTO reservations (id, account_id, amount, status, created_at, expires_at, settled_amount,
                    spending_id, ended_at, end_balance)
                SELECT n.id, n.account_id, n.amount, n.status, n.created_at, n.expires_at, n.settled_amount,
                    n.spending_id, n.ended_at, n.end_balance
                FROM unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::bigint[], ?::bigint[],
                    ?::text[], ?::bigint[], ?::bigint[]) WITH ORDINALITY AS n (id, account_id, amount, status,
                    created_at, expires_at, settled_amount, spending_id, ended_at, end_balance, position)
                ORDER BY n.position)
            UPDATE reservations r SET status = e.status, settled_amount = e.settled_amount,
                spending_id = e.spending_id, ended_at = e.ended_at, end_balance = e.end_balance
            FROM unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[], ?::bigint[])
                AS e (id, status, settled_amount, spending_id, ended_at, end_balance)
            WHERE r.id = e.id AND r.status = 'held'""";

    PostgresLedgerStore(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        super(database, outbox, accessChanges);
    }

    @Override
    Map<String, LockedAccount> lockAccounts(Connection connection, SortedSet<String> ids, Duration lockWait)
            throws SQLException {
        Map<String, LockedAccount> accounts = new HashMap<>();
        Array idArray = texts(connection, ids.stream());
        if (lockWait.isZero()) {
            lockAndReadGrants(connection, LOCK_FREE_ONES, idArray, accounts, () -> {
                if (accounts.size() < ids.size()) {
                    requireNoneBusy(connection, ids, accounts.keySet());
                }
            });
        } else {
            // At least 1 ms: a lock_timeout of 0 would wait for ever.
            String replaced = setLockWait(connection, Long.toString(Math.max(1, lockWait.toMillis())));
            lockAndReadGrants(connection, LOCK_MANY, idArray, accounts, () -> {});
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
        Array idArray = texts(connection, ids.stream());
        try (PreparedStatement ps = connection.prepareStatement(RESERVATIONS_AND_DRAWS)) {
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
        try (PreparedStatement ps = connection.prepareStatement(WRITE_RESERVATIONS)) {
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

    private static void lockAndReadGrants(
            Connection connection, String lock, Array ids, Map<String, LockedAccount> accounts, LockCheck check)
            throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(REUSE_PLANS + lock + GRANTS_OF_MANY)) {
            ps.setArray(1, ids);
            ps.setArray(2, ids);
            if (ps.execute() || !ps.getMoreResults()) { // the SET comes first, with no rows
                throw new IllegalStateException("The lock statement returned no accounts result after its SET");
            }
            readAccounts(ps.getResultSet(), accounts);
            check.run();
            if (!ps.getMoreResults()) {
                throw new IllegalStateException("The lock statement returned no grants result");
            }
            readGrants(ps.getResultSet(), accounts);
        }
    }

    /** An id the lock left out is an account locked elsewhere, or one that does not exist (yet). */
    private static void requireNoneBusy(Connection connection, SortedSet<String> ids, Set<String> locked)
            throws SQLException {
        Set<String> busy = new HashSet<>();
        try (PreparedStatement ps = connection.prepareStatement(EXISTING)) {
            ps.setArray(1, texts(connection, ids.stream().filter(id -> !locked.contains(id))));
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

    /** Sets this transaction's wait for a lock; returns the wait it replaced. */
    private static String setLockWait(Connection connection, String millis) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement(SET_LOCK_WAIT)) {
            ps.setString(1, millis);
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
        try (PreparedStatement ps = connection.prepareStatement(endsRound ? WRITE_CHANGES_AND_COMMIT : WRITE_CHANGES)) {
            int i = 0;
            ps.setLong(++i, changes.at().toEpochMilli());
            ps.setArray(++i, texts(connection, changes.balances().keySet().stream()));
            ps.setArray(++i, longs(connection, changes.balances().values().stream()));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(Spending::id)));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(Spending::accountId)));
            ps.setArray(++i, longs(connection, changes.newSpendings().stream().map(Spending::amount)));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(JdbcLedgerStore::status)));
            ps.setArray(++i, longs(connection, changes.newSpendings().stream().map(s -> epochMillis(s.revertedAt()))));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(draws::soleGrant)));
            List<Grant> created = changes.newGrants();
            ps.setArray(++i, texts(connection, created.stream().map(Grant::id)));
            ps.setArray(++i, texts(connection, created.stream().map(Grant::accountId)));
            ps.setArray(
                    ++i, texts(connection, created.stream().map(g -> g.kind().wire())));
            ps.setArray(++i, longs(connection, created.stream().map(Grant::amount)));
            ps.setArray(++i, longs(connection, created.stream().map(Grant::remaining)));
            ps.setArray(++i, longs(connection, created.stream().map(Grant::expired)));
            ps.setArray(++i, longs(connection, created.stream().map(g -> epochMillis(g.expiresAt()))));
            ps.setArray(++i, longs(connection, created.stream().map(g -> epochMillis(g.periodStart()))));
            List<Grant> changed = changes.changedGrants();
            ps.setArray(++i, texts(connection, changed.stream().map(Grant::id)));
            ps.setArray(++i, longs(connection, changed.stream().map(Grant::remaining)));
            ps.setArray(++i, longs(connection, changed.stream().map(Grant::expired)));
            ps.setArray(++i, longs(connection, changed.stream().map(g -> epochMillis(g.expiresAt()))));
            List<Allocation> drawn = draws.rows();
            ps.setArray(++i, texts(connection, drawn.stream().map(Allocation::spendingId)));
            ps.setArray(++i, texts(connection, drawn.stream().map(Allocation::grantId)));
            ps.setArray(++i, longs(connection, drawn.stream().map(Allocation::amount)));
            ps.setArray(++i, longs(connection, drawn.stream().map(Allocation::returned)));
            ps.setArray(++i, texts(connection, changes.lines().stream().map(LedgerLine::accountId)));
            ps.setArray(
                    ++i,
                    texts(connection, changes.lines().stream().map(l -> l.kind().wire())));
            ps.setArray(++i, longs(connection, changes.lines().stream().map(LedgerLine::amount)));
            ps.setArray(++i, longs(connection, changes.lines().stream().map(LedgerLine::balanceAfter)));
            ps.setArray(
                    ++i,
                    texts(
                            connection,
                            changes.lines().stream().map(l -> l.spendingId().orElse(null))));
            ps.setArray(
                    ++i,
                    texts(
                            connection,
                            changes.lines().stream().map(l -> l.grantId().orElse(null))));
            ps.setArray(
                    ++i,
                    texts(
                            connection,
                            changes.lines().stream().map(l -> l.reason().orElse(null))));
            ps.execute();
        }
    }
}
