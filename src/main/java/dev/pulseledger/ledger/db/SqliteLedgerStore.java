package dev.pulseledger.ledger.db;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.KeyCharge;
import dev.pulseledger.ledger.core.StateQuery;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.SqliteStatements;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The ledger on SQLite: a write transaction holds the database's one write lock from BEGIN (IMMEDIATE),
 * which serializes rounds, and SQLite runs in this process, so a statement per row costs no round trip;
 * the reads still take one statement per batch, as each statement costs its own stepping and column lookups,
 * and every statement stays prepared on its connection ({@link SqliteStatements}).
 */
final class SqliteLedgerStore extends JdbcLedgerStore {
    private final SqliteStatements statements = new SqliteStatements();

    SqliteLedgerStore(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        super(database, outbox, accessChanges);
    }

    /** The write lock taken at BEGIN covers every account, so none is ever busy and {@code lockWait} is moot. */
    @Override
    LockedReads lockAndRead(Connection connection, StateQuery query, Duration lockWait) throws SQLException {
        LockedReads reads = LockedReads.empty();
        Map<String, LockedAccount> accounts = reads.accounts();
        String idArray = jsonArray(query.accountIds());
        try {
            PreparedStatement selectAccounts = statements.get(connection, SqliteLedgerSql.SELECT_MANY.sql());
            SqliteLedgerSql.SELECT_MANY.setString(selectAccounts, "ids", idArray);
            readAccounts(selectAccounts.executeQuery(), accounts);
            PreparedStatement selectGrants = statements.get(connection, SqliteLedgerSql.GRANTS_OF_MANY.sql());
            SqliteLedgerSql.GRANTS_OF_MANY.setString(selectGrants, "ids", idArray);
            readGrants(selectGrants.executeQuery(), accounts);
            PreparedStatement selectBudgets = statements.get(connection, KeyBudgetRows.OF_ACCOUNTS_SQLITE.sql());
            KeyBudgetRows.OF_ACCOUNTS_SQLITE.setString(selectBudgets, "ids", idArray);
            KeyBudgetRows.bindWindows(KeyBudgetRows.OF_ACCOUNTS_SQLITE, selectBudgets, query.now());
            KeyBudgetRows.read(selectBudgets.executeQuery(), reads.budgets());
            if (!query.reservationIds().isEmpty()) {
                readReservations(connection, query.reservationIds(), reads);
            }
        } catch (SQLException | RuntimeException e) {
            statements.forget(connection);
            throw e;
        }
        return reads;
    }

    private void readReservations(Connection connection, Collection<String> ids, LockedReads into) throws SQLException {
        PreparedStatement rows = statements.get(connection, SqliteLedgerSql.RESERVATIONS_OF_MANY.sql());
        SqliteLedgerSql.RESERVATIONS_OF_MANY.setString(rows, "ids", jsonArray(ids));
        List<String> paidBySeveral = ReservationRows.readNamed(rows.executeQuery(), into);
        if (paidBySeveral.isEmpty()) {
            return;
        }
        PreparedStatement draws = statements.get(connection, SqliteLedgerSql.DRAWS_OF_MANY.sql());
        SqliteLedgerSql.DRAWS_OF_MANY.setString(draws, "ids", jsonArray(paidBySeveral));
        ReservationRows.draws(draws.executeQuery(), paidBySeveral, into.allocations());
    }

    /** In-process, a commit costs no round trip: the caller's commit ends the round. */
    @Override
    void writeRoundChanges(Connection connection, ChangeSet changes, List<Allocation> returned, boolean endsRound)
            throws SQLException {
        try {
            writeRows(
                    connection,
                    SqliteLedgerSql.UPDATE_BALANCE,
                    changes.balances().entrySet(),
                    (sql, ps, change) -> {
                        sql.setLong(ps, "balance", change.getValue());
                        sql.setLong(ps, "last_line_at", changes.at().toEpochMilli());
                        sql.setString(ps, "id", change.getKey());
                    });
            NewDraws draws = NewDraws.of(changes);
            writeRows(connection, SqliteLedgerSql.INSERT_SPENDING, changes.newSpendings(), (sql, ps, spending) -> {
                sql.setString(ps, "id", spending.id());
                sql.setString(ps, "account_id", spending.accountId());
                sql.setLong(ps, "amount", spending.amount());
                sql.setString(ps, "status", status(spending));
                sql.setLong(ps, "created_at", spending.createdAt().toEpochMilli());
                sql.setNullableLong(ps, "reverted_at", epochMillis(spending.revertedAt()));
                sql.setString(ps, "grant_id", draws.soleGrant(spending.id()));
                sql.setString(ps, "pool", spending.pool());
                sql.setString(
                        ps, "key_id", spending.charge().map(KeyCharge::keyId).orElse(null));
                sql.setNullableLong(
                        ps, "key_used_at", epochMillis(spending.charge().map(KeyCharge::at)));
            });
            writeRows(connection, SqliteLedgerSql.INSERT_GRANT, changes.newGrants(), (sql, ps, grant) -> {
                sql.setString(ps, "id", grant.id());
                sql.setString(ps, "account_id", grant.accountId());
                sql.setString(ps, "kind", grant.kind().wire());
                sql.setLong(ps, "amount", grant.amount());
                sql.setLong(ps, "remaining", grant.remaining());
                sql.setLong(ps, "expired", grant.expired());
                sql.setNullableLong(ps, "expires_at", epochMillis(grant.expiresAt()));
                sql.setNullableLong(ps, "period_start", epochMillis(grant.periodStart()));
                sql.setLong(ps, "created_at", grant.createdAt().toEpochMilli());
                sql.setString(ps, "pool", grant.pool());
                sql.setBoolean(ps, "live", grant.remaining() > 0);
            });
            writeChangedGrants(connection, changes.changedGrants());
            writeRows(connection, SqliteLedgerSql.INSERT_ALLOCATION, draws.rows(), (sql, ps, allocation) -> {
                sql.setString(ps, "spending_id", allocation.spendingId());
                sql.setString(ps, "grant_id", allocation.grantId());
                sql.setLong(ps, "amount", allocation.amount());
                sql.setLong(ps, "returned", allocation.returned());
            });
            writeRows(connection, SqliteLedgerSql.INSERT_LINE, changes.lines(), (sql, ps, line) -> {
                sql.setString(ps, "account_id", line.accountId());
                sql.setString(ps, "kind", line.kind().wire());
                sql.setLong(ps, "amount", line.amount());
                sql.setLong(ps, "balance_after", line.balanceAfter());
                sql.setString(ps, "spending_id", line.spendingId().orElse(null));
                sql.setString(ps, "grant_id", line.grantId().orElse(null));
                sql.setString(ps, "reason", line.reason().orElse(null));
                sql.setLong(ps, "created_at", changes.at().toEpochMilli());
                sql.setString(ps, "pool", line.pool());
            });
            writeRows(connection, SqliteLedgerSql.INSERT_RESERVATION, changes.newReservations(), (sql, ps, r) -> {
                ReservationRows.bindEnd(sql, ps, r);
                sql.setString(ps, "account_id", r.accountId());
                sql.setLong(ps, "amount", r.amount());
                sql.setLong(ps, "created_at", r.createdAt().toEpochMilli());
                sql.setLong(ps, "expires_at", r.expiresAt().toEpochMilli());
                sql.setString(ps, "pool", r.pool());
                sql.setString(ps, "key_id", r.keyId().orElse(null));
                sql.setString(ps, "grant_id", draws.soleGrant(r.id()));
            });
            ReservationRows.requireEachEndedOne(writeRows(
                    connection,
                    SqliteLedgerSql.END_RESERVATION,
                    changes.endedReservations(),
                    ReservationRows::bindEnd));
            requireEachChangedOneRow(writeRows(connection, SqliteLedgerSql.RETURN_DRAW, returned, (sql, ps, draw) -> {
                sql.setLong(ps, "returned", draw.returned());
                sql.setString(ps, "spending_id", draw.spendingId());
                sql.setString(ps, "grant_id", draw.grantId());
            }));
        } catch (SQLException | RuntimeException e) {
            statements.forget(connection);
            throw e;
        }
    }

    /**
     * Updates the grants, touching {@code grants_live} only for those whose liveness changes: a grant left
     * with tokens is tried as one that had them, and written again with its liveness when it had not.
     */
    private void writeChangedGrants(Connection connection, Collection<Grant> grants) throws SQLException {
        // Loops, not streams: this runs for the grant of every spend.
        List<Grant> stillLive = new ArrayList<>(grants.size());
        for (Grant grant : grants) {
            if (grant.remaining() > 0) {
                stillLive.add(grant);
            }
        }
        int[] updated = writeRows(connection, SqliteLedgerSql.UPDATE_LIVE_GRANT, stillLive, GRANT_CHANGE);
        List<Grant> livenessChanged = new ArrayList<>();
        for (int i = 0; i < stillLive.size(); i++) {
            if (updated[i] == 0) {
                livenessChanged.add(stillLive.get(i));
            }
        }
        for (Grant grant : grants) {
            if (grant.remaining() == 0) {
                livenessChanged.add(grant);
            }
        }
        writeRows(connection, SqliteLedgerSql.UPDATE_GRANT_AND_LIVENESS, livenessChanged, (sql, ps, grant) -> {
            GRANT_CHANGE.bind(sql, ps, grant);
            sql.setBoolean(ps, "live", grant.remaining() > 0);
        });
    }

    /** A grant's changed columns, by id. */
    private static final RowBinder<Grant> GRANT_CHANGE = (sql, ps, grant) -> {
        sql.setString(ps, "id", grant.id());
        sql.setLong(ps, "remaining", grant.remaining());
        sql.setLong(ps, "expired", grant.expired());
        sql.setNullableLong(ps, "expires_at", epochMillis(grant.expiresAt()));
    };

    /** Sets one row's parameters on a statement. */
    @FunctionalInterface
    private interface RowBinder<T> {
        void bind(NamedSql sql, PreparedStatement statement, T row) throws SQLException;
    }

    /**
     * Writes {@code rows} with one batch of {@code sql}, or touches nothing when there are none; returns
     * the count of rows each one changed.
     */
    private <T> int[] writeRows(Connection connection, NamedSql sql, Collection<T> rows, RowBinder<T> binder)
            throws SQLException {
        if (rows.isEmpty()) {
            return new int[0];
        }
        PreparedStatement ps = statements.get(connection, sql.sql());
        for (T row : rows) {
            binder.bind(sql, ps, row);
            ps.addBatch();
        }
        return ps.executeBatch();
    }

    /**
     * The ids as one JSON array of strings, for {@code json_each}: built by hand, each id escaped by Jackson's
     * encoder, as an {@code ObjectMapper} took 6 % of the writer's time in a profile of reservations (session 21).
     */
    static String jsonArray(Collection<String> ids) {
        StringBuilder json = new StringBuilder(ids.size() * 32 + 2).append('[');
        for (String id : ids) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append('"');
            JsonStringEncoder.getInstance().quoteAsString(id, json);
            json.append('"');
        }
        return json.append(']').toString();
    }
}
