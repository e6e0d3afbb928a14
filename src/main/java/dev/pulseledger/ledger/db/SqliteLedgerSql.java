package dev.pulseledger.ledger.db;

import dev.pulseledger.store.NamedSql;

/**
 * Every statement of the SQLite ledger store, with named parameters: the one file to read for what the
 * SQLite round runs. The columns written come from {@link LedgerTables}.
 */
final class SqliteLedgerSql {
    /** The batch's accounts, named by one JSON array of ids: one statement for the batch, not one per account. */
    static final NamedSql SELECT_MANY =
            NamedSql.parse(JdbcLedgerStore.LOCKED_COLUMNS + " WHERE a.id IN (SELECT value FROM json_each(:ids))");

    static final NamedSql GRANTS_OF_MANY =
            NamedSql.parse(JdbcLedgerStore.LIVE_GRANTS + " AND g.account_id IN (SELECT value FROM json_each(:ids))");

    static final NamedSql UPDATE_BALANCE =
            NamedSql.parse("UPDATE accounts SET balance = :balance, last_line_at = :last_line_at WHERE id = :id");

    static final NamedSql INSERT_SPENDING = NamedSql.parse(LedgerTables.SPENDINGS.insert());

    /** SQLite keeps {@code live} as a column of its own, for the partial index {@code grants_live} (V180). */
    static final NamedSql INSERT_GRANT =
            NamedSql.parse(LedgerTables.GRANTS.with("live").insert());

    /**
     * A grant that had tokens and still has: {@code live} is not set, so SQLite leaves the grant's entry in
     * {@code grants_live} alone (V180). Changes nothing when the grant had run out.
     */
    static final NamedSql UPDATE_LIVE_GRANT =
            NamedSql.parse("UPDATE grants SET remaining = :remaining, expired = :expired, expires_at = :expires_at"
                    + " WHERE id = :id AND live");

    /** A grant that runs out, or comes back: its {@code grants_live} entry goes, or comes. */
    static final NamedSql UPDATE_GRANT_AND_LIVENESS = NamedSql.parse(
            "UPDATE grants SET remaining = :remaining, expired = :expired, expires_at = :expires_at, live = :live"
                    + " WHERE id = :id");

    static final NamedSql INSERT_ALLOCATION = NamedSql.parse(LedgerTables.SPENDING_GRANTS.insert());

    static final NamedSql INSERT_LINE = NamedSql.parse(LedgerTables.LEDGER_ENTRIES.insert());

    /**
     * The reservations a batch names, and the draws from grants of those several grants paid: a statement each
     * for the batch.
     */
    static final NamedSql RESERVATIONS_OF_MANY = NamedSql.parse("SELECT " + ReservationRows.WITH_SOLE_GRANT
            + " FROM reservations WHERE id IN (SELECT value FROM json_each(:ids))");

    static final NamedSql DRAWS_OF_MANY = NamedSql.parse("SELECT " + ReservationRows.DRAW_COLUMNS
            + " FROM spending_grants WHERE spending_id IN (SELECT value FROM json_each(:ids))"
            + " ORDER BY spending_id, grant_id");

    static final NamedSql INSERT_RESERVATION = NamedSql.parse(LedgerTables.RESERVATIONS.insert());

    /** Ends a reservation that is still held; changes nothing otherwise. */
    static final NamedSql END_RESERVATION = NamedSql.parse(ReservationRows.END);

    /** What an earlier draw from a grant returned. */
    static final NamedSql RETURN_DRAW = NamedSql.parse(
            "UPDATE spending_grants SET returned = :returned WHERE spending_id = :spending_id AND grant_id = :grant_id");

    private SqliteLedgerSql() {}
}
