package dev.pulseledger.ledger.db;

import dev.pulseledger.store.NamedSql;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Every statement of the PostgreSQL ledger store, with named parameters: the one file to read for what
 * the PostgreSQL round sends. The columns written come from {@link LedgerTables}.
 */
final class PostgresLedgerSql {
    static final String LOCK_MANY =
            JdbcLedgerStore.LOCKED_COLUMNS + " WHERE a.id = ANY (:ids) ORDER BY a.id FOR UPDATE OF a";
    /** Leaves out, without waiting, the rows another transaction has locked. */
    static final String LOCK_FREE_ONES = LOCK_MANY + " SKIP LOCKED";

    static final NamedSql EXISTING = NamedSql.parse("SELECT id FROM accounts WHERE id = ANY (:ids)");
    /** The wait for a lock, for this transaction only; returns the wait it replaced. */
    static final NamedSql SET_LOCK_WAIT = NamedSql.parse(
            "SELECT current_setting('lock_timeout') AS replaced, set_config('lock_timeout', :millis, true)");

    /**
     * Sent before the lock, in its round trip: every statement of the round then runs on the plan kept for
     * it, instead of being planned again. Left to itself PostgreSQL plans a statement that takes an array
     * ({@code = ANY (?)}, {@code unnest}) afresh each time, as the plan for the array's real length always
     * looks cheaper than one for an unknown length; that planning was ~7 µs of the database's CPU per spend
     * (PERFORMANCE.md, session 9). Each statement here looks rows up by key, which one plan serves for any
     * length.
     */
    private static final String REUSE_PLANS_STATEMENT = "SET LOCAL plan_cache_mode = force_generic_plan";

    /** {@link #REUSE_PLANS_STATEMENT} ahead of the statements it is sent with. */
    private static final String REUSE_PLANS = REUSE_PLANS_STATEMENT + ";\n";

    /**
     * Plans each of the round's following statements for its own values. A round starts with
     * {@link #REUSE_PLANS}, right for the spend's statements, but a kept (generic) plan of a statement on the
     * reservations is made while that table is small: a sequential scan, which stays the plan as the table
     * grows (measured: the reservations read and write took ever longer, round after round of the bench).
     */
    static final String PLAN_EACH_TIME = "SET LOCAL plan_cache_mode = force_custom_plan";

    /**
     * The live grants of the batch's accounts, sent with the lock, in the same round trip: each statement
     * takes its snapshot when it starts, so the grants are read after the locks are held, as the round that
     * held one last committed them.
     */
    private static final String GRANTS_OF_MANY = ";\n" + JdbcLedgerStore.LIVE_GRANTS + " AND g.account_id = ANY (:ids)";

    /**
     * The budgets of the batch's accounts' keys in their windows ({@link KeyBudgetRows}), sent after the lock
     * in its round trip: read, like the grants, once the accounts are locked. An account whose keys have no
     * budgets costs a probe of {@code key_budgets} per key.
     */
    private static final String BUDGETS_OF_ACCOUNTS = ";\n" + KeyBudgetRows.OF_ACCOUNTS_POSTGRES;

    /** The lock and the reads of the grants and the keys' budgets, in one round trip. */
    static final NamedSql LOCK_AND_READ_GRANTS =
            NamedSql.parse(REUSE_PLANS + LOCK_MANY + GRANTS_OF_MANY + BUDGETS_OF_ACCOUNTS);

    /** {@link #LOCK_AND_READ_GRANTS} without waiting for a lock another round holds. */
    static final NamedSql LOCK_FREE_AND_READ_GRANTS =
            NamedSql.parse(REUSE_PLANS + LOCK_FREE_ONES + GRANTS_OF_MANY + BUDGETS_OF_ACCOUNTS);

    /**
     * The reservations a batch names, planned for their values ({@link #PLAN_EACH_TIME}); the round's later
     * statements go back to their kept plans, as a spend's do. The draws of a hold one grant paid are in
     * its own row (V292); the others' are read by {@link #DRAWS_OF_RESERVATIONS}, once these are known.
     */
    private static final String RESERVATIONS_OF_BATCH = PLAN_EACH_TIME + ";\nSELECT " + ReservationRows.WITH_SOLE_GRANT
            + " FROM reservations WHERE id = ANY (:reservation_ids);\n" + REUSE_PLANS_STATEMENT;

    /**
     * {@link #LOCK_AND_READ_GRANTS} and the reservations the batch names, in the same round trip: a settle's
     * round then costs the two round trips of a spend's (it read its reservations in one of their own).
     */
    static final NamedSql LOCK_AND_READ_RESERVATIONS = NamedSql.parse(
            REUSE_PLANS + LOCK_MANY + GRANTS_OF_MANY + BUDGETS_OF_ACCOUNTS + ";\n" + RESERVATIONS_OF_BATCH);

    /** {@link #LOCK_AND_READ_RESERVATIONS} without waiting for a lock another round holds. */
    static final NamedSql LOCK_FREE_AND_READ_RESERVATIONS = NamedSql.parse(
            REUSE_PLANS + LOCK_FREE_ONES + GRANTS_OF_MANY + BUDGETS_OF_ACCOUNTS + ";\n" + RESERVATIONS_OF_BATCH);

    /** The reservations a batch names read again, once a second lock has taken in accounts the first left out. */
    static final NamedSql RESERVATIONS = NamedSql.parse(RESERVATIONS_OF_BATCH);

    /** The draws of the holds that several grants paid, planned like the reservations' read. */
    static final NamedSql DRAWS_OF_RESERVATIONS = NamedSql.parse(PLAN_EACH_TIME + ";\nSELECT "
            + ReservationRows.DRAW_COLUMNS
            + " FROM spending_grants WHERE spending_id = ANY (:reservation_ids) ORDER BY spending_id, grant_id;\n"
            + REUSE_PLANS_STATEMENT);

    /**
     * The parts of a round's write, each sent only when the round has rows for it: an empty part still cost
     * the server an executor for its table, with the table and its indexes opened and locked, and the writer
     * its arrays. Each part's {@link WritePart.Place} says where it stands: the CTEs and the main part make one
     * statement; the parts after it are statements of their own, planned for their values as their reads are
     * ({@link #PLAN_EACH_TIME}). WITH ORDINALITY keeps the queue's order, so sequence numbers follow it as
     * they do on SQLite. The arrays of pools are empty when every row is in the {@code default} pool, the
     * common case: unnest pads them with NULLs, which COALESCE reads as {@code default}, so such a batch
     * sends no pool names.
     */
    enum WritePart {
        BALANCES(Place.CTE, """
                balances AS (
                    UPDATE accounts a SET balance = c.balance, last_line_at = batch.created_at
                    FROM batch, unnest(:balance_account_ids::text[], :balances::bigint[]) AS c (id, balance)
                    WHERE a.id = c.id)"""),
        SPENDINGS(Place.CTE, """
                new_spendings AS (
                    INSERT INTO spendings (%s)
                    SELECT s.id, s.account_id, s.amount, s.status, batch.created_at, s.reverted_at, s.grant_id,
                        COALESCE(s.pool, 'default'), s.key_id, s.key_used_at
                    FROM batch, unnest(:spending_ids::text[], :spending_account_ids::text[],
                            :spending_amounts::bigint[], :spending_statuses::text[], :spending_reverted_ats::bigint[],
                            :spending_grant_ids::text[], :spending_pools::text[], :spending_key_ids::text[],
                            :spending_key_used_ats::bigint[])
                        WITH ORDINALITY AS s (id, account_id, amount, status, reverted_at, grant_id, pool, key_id,
                            key_used_at, position)
                    ORDER BY s.position)""".formatted(LedgerTables.SPENDINGS.columnList())),
        NEW_GRANTS(Place.CTE, """
                new_grants AS (
                    INSERT INTO grants (%s)
                    SELECT n.id, n.account_id, n.kind, n.amount, n.remaining, n.expired, n.expires_at, n.period_start,
                        batch.created_at, COALESCE(n.pool, 'default')
                    FROM batch, unnest(:grant_ids::text[], :grant_account_ids::text[], :grant_kinds::text[],
                            :grant_amounts::bigint[], :grant_remainings::bigint[], :grant_expireds::bigint[],
                            :grant_expires_ats::bigint[], :grant_period_starts::bigint[], :grant_pools::text[])
                        AS n (id, account_id, kind, amount, remaining, expired, expires_at, period_start, pool))""".formatted(LedgerTables.GRANTS.columnList())),
        CHANGED_GRANTS(Place.CTE, """
                changed_grants AS (
                    UPDATE grants g SET remaining = c.remaining, expired = c.expired, expires_at = c.expires_at
                    FROM unnest(:changed_grant_ids::text[], :changed_remainings::bigint[],
                            :changed_expireds::bigint[], :changed_expires_ats::bigint[])
                        AS c (id, remaining, expired, expires_at)
                    WHERE g.id = c.id)"""),
        DRAWS(Place.CTE, """
                new_allocations AS (
                    INSERT INTO spending_grants (%s)
                    SELECT * FROM unnest(:draw_spending_ids::text[], :draw_grant_ids::text[], :draw_amounts::bigint[],
                            :draw_returneds::bigint[]))""".formatted(LedgerTables.SPENDING_GRANTS.columnList())),
        LINES(Place.MAIN, """
                INSERT INTO ledger_entries (%s)
                SELECT l.account_id, l.kind, l.amount, l.balance_after, l.spending_id, l.grant_id, l.reason,
                    batch.created_at, COALESCE(l.pool, 'default')
                FROM batch, unnest(:line_account_ids::text[], :line_kinds::text[], :line_amounts::bigint[],
                        :line_balance_afters::bigint[], :line_spending_ids::text[], :line_grant_ids::text[],
                        :line_reasons::text[], :line_pools::text[])
                    WITH ORDINALITY AS l (account_id, kind, amount, balance_after, spending_id, grant_id, reason,
                        pool, position)
                ORDER BY l.position""".formatted(LedgerTables.LEDGER_ENTRIES.columnList())),
        RESERVATIONS(Place.AFTER, WRITE_RESERVATIONS),
        RETURNS(Place.AFTER, RETURN_DRAWS);

        /** Where a part stands in the write. */
        enum Place {
            /** A data-changing CTE of the statement whose main part is {@link #LINES}. */
            CTE,
            /** That statement's main part. */
            MAIN,
            /** A statement of its own, after that one. */
            AFTER
        }

        private final Place place;
        private final String sql;

        WritePart(Place place, String sql) {
            this.place = place;
            this.sql = sql;
        }
    }

    /**
     * The batch's new reservations and the earlier ones it ended, in one statement. Every one it ends must
     * still have been held, as the account lock makes the core's decision final; the statement fails when one
     * was not (the cast of the text below to a number), so the round rolls back instead of committing, even
     * when the commit travels with it. A held one is found by {@code ended_at IS NULL} (the same rows, by
     * V90's check), not by its status: that would let the planner take the index of held reservations, whose
     * entries for ended ones stay until a vacuum, and a bitmap scan of it read 1,762 of them to end 24
     * (auto_explain, session 21). A reservation made and ended in one batch is only inserted, as it ended;
     * the new ones take their sequence numbers in the queue's order, as on SQLite.
     */
    private static final String WRITE_RESERVATIONS = """
            WITH new_reservations AS (
                INSERT INTO reservations (%s)
                SELECT n.id, n.account_id, n.amount, n.status, n.created_at, n.expires_at, n.settled_amount,
                    n.spending_id, n.ended_at, n.end_balance, n.pool, n.key_id, n.grant_id
                FROM unnest(:new_ids::text[], :new_account_ids::text[], :new_amounts::bigint[], :new_statuses::text[],
                        :new_created_ats::bigint[], :new_expires_ats::bigint[], :new_settled_amounts::bigint[],
                        :new_spending_ids::text[], :new_ended_ats::bigint[], :new_end_balances::bigint[],
                        :new_pools::text[], :new_key_ids::text[], :new_grant_ids::text[])
                    WITH ORDINALITY AS n (id, account_id, amount, status, created_at, expires_at, settled_amount,
                        spending_id, ended_at, end_balance, pool, key_id, grant_id, position)
                ORDER BY n.position),
            ended AS (
                UPDATE reservations r SET status = e.status, settled_amount = e.settled_amount,
                    spending_id = e.spending_id, ended_at = e.ended_at, end_balance = e.end_balance
                FROM unnest(:ended_ids::text[], :ended_statuses::text[], :ended_settled_amounts::bigint[],
                        :ended_spending_ids::text[], :ended_ended_ats::bigint[], :ended_end_balances::bigint[])
                    AS e (id, status, settled_amount, spending_id, ended_at, end_balance)
                WHERE r.id = e.id AND r.ended_at IS NULL
                RETURNING r.id)
            SELECT (CASE WHEN count(*) = :ended_count THEN '0' ELSE 'A reservation ended twice' END)::integer
            FROM ended""".formatted(LedgerTables.RESERVATIONS.columnList());

    /**
     * What earlier draws from grants returned (a settle's or release's hold, a revert of a spending that
     * several grants paid), each of which must change its one row, or the statement fails as
     * {@link #WRITE_RESERVATIONS} does.
     */
    private static final String RETURN_DRAWS = """
            WITH returned AS (
                UPDATE spending_grants g SET returned = r.returned
                FROM unnest(:returned_spending_ids::text[], :returned_grant_ids::text[], :returneds::bigint[])
                    AS r (spending_id, grant_id, returned)
                WHERE g.spending_id = r.spending_id AND g.grant_id = r.grant_id
                RETURNING 1)
            SELECT (CASE WHEN count(*) = :returned_count THEN '0'
                ELSE 'A ledger round changed a row that was not as it had read it' END)::integer
            FROM returned""";

    /**
     * A round's writes in one round trip, whatever its commands: the {@code parts} it has rows for
     * ({@link WritePart}), and the commit when nothing follows. A separate COMMIT cost the writer a sixth of a
     * round's time, mostly waiting for the backend to be scheduled again; a round with reservations took
     * four round trips more than a spend's. Should a statement fail, the server skips the rest, COMMIT
     * included, and the caller rolls back as usual. {@code parts} must not be empty.
     */
    static NamedSql write(EnumSet<WritePart> parts, boolean commit) {
        return WRITES.computeIfAbsent(
                new WriteShape(EnumSet.copyOf(parts), commit), shape -> NamedSql.parse(compose(parts, commit)));
    }

    /** What decides a write's text: its parts and whether it commits. */
    private record WriteShape(EnumSet<WritePart> parts, boolean commit) {}

    /** Each combination of {@link #write} that a round has sent, parsed once. */
    private static final Map<WriteShape, NamedSql> WRITES = new ConcurrentHashMap<>();

    private static String compose(EnumSet<WritePart> parts, boolean commit) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("A write with no parts");
        }
        List<String> statements = new ArrayList<>();
        List<String> changes = sqlOf(parts, WritePart.Place.CTE);
        if (!changes.isEmpty() || parts.contains(WritePart.LINES)) {
            StringBuilder lines = new StringBuilder("WITH batch AS (SELECT :created_at::bigint AS created_at)");
            changes.forEach(cte -> lines.append(",\n").append(cte));
            lines.append('\n').append(parts.contains(WritePart.LINES) ? WritePart.LINES.sql : "SELECT 1");
            statements.add(lines.toString());
        }
        List<String> after = sqlOf(parts, WritePart.Place.AFTER);
        if (!after.isEmpty()) {
            statements.add(PLAN_EACH_TIME);
            statements.addAll(after);
        }
        if (commit) {
            statements.add("COMMIT");
        }
        return String.join(";\n", statements);
    }

    /** The text of the {@code parts} that stand at {@code place}, in the parts' order. */
    private static List<String> sqlOf(EnumSet<WritePart> parts, WritePart.Place place) {
        return parts.stream()
                .filter(part -> part.place == place)
                .map(part -> part.sql)
                .toList();
    }

    private PostgresLedgerSql() {}
}
