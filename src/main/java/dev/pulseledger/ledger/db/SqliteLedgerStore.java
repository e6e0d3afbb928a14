package dev.pulseledger.ledger.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Grant;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;

/**
 * The ledger on SQLite: a write transaction holds the database's one write lock from BEGIN (IMMEDIATE),
 * which serializes rounds, and SQLite runs in this process, so a statement per row costs no round trip;
 * the reads still take one statement per batch, as each statement costs its own stepping and column lookups,
 * and every statement stays prepared on its connection ({@link SqliteStatements}).
 */
final class SqliteLedgerStore extends JdbcLedgerStore {
    /** The batch's accounts, named by one JSON array of ids: one statement for the batch, not one per account. */
    private static final String SELECT_MANY = LOCKED_COLUMNS + " WHERE a.id IN (SELECT value FROM json_each(?))";

    private static final String GRANTS_OF_MANY = LIVE_GRANTS + " AND g.account_id IN (SELECT value FROM json_each(?))";
    /** The reservations a batch names, and their draws from grants: a statement each for the batch. */
    private static final String RESERVATIONS_OF_MANY =
            "SELECT " + ReservationRows.COLUMNS + " FROM reservations WHERE id IN (SELECT value FROM json_each(?))";

    private static final String DRAWS_OF_MANY = "SELECT " + ReservationRows.DRAW_COLUMNS
            + " FROM spending_grants WHERE spending_id IN (SELECT value FROM json_each(?)) ORDER BY spending_id, grant_id";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String UPDATE_BALANCE = "UPDATE accounts SET balance = ?, last_line_at = ? WHERE id = ?";
    private static final String INSERT_SPENDING =
            "INSERT INTO spendings (id, account_id, amount, status, created_at, reverted_at, grant_id)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?)";
    private static final String INSERT_GRANT =
            "INSERT INTO grants (id, account_id, kind, amount, remaining, expired, expires_at, period_start,"
                    + " created_at, live) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    /**
     * A grant that had tokens and still has: {@code live} is not set, so SQLite leaves the grant's entry in
     * {@code grants_live} alone (V180). Changes nothing when the grant had run out.
     */
    private static final String UPDATE_LIVE_GRANT =
            "UPDATE grants SET remaining = ?, expired = ?, expires_at = ? WHERE id = ? AND live";
    /** A grant that runs out, or comes back: its {@code grants_live} entry goes, or comes. */
    private static final String UPDATE_GRANT_AND_LIVENESS =
            "UPDATE grants SET remaining = ?, expired = ?, expires_at = ?, live = ? WHERE id = ?";

    private static final String INSERT_ALLOCATION =
            "INSERT INTO spending_grants (spending_id, grant_id, amount, returned) VALUES (?, ?, ?, ?)";
    private static final String INSERT_LINE =
            "INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, grant_id, reason,"
                    + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

    private final SqliteStatements statements = new SqliteStatements();

    SqliteLedgerStore(Database database, Outbox outbox, AccessChangeLog accessChanges) {
        super(database, outbox, accessChanges);
    }

    /** The write lock taken at BEGIN covers every account, so none is ever busy and {@code lockWait} is moot. */
    @Override
    Map<String, LockedAccount> lockAccounts(Connection connection, SortedSet<String> ids, Duration lockWait)
            throws SQLException {
        Map<String, LockedAccount> accounts = new HashMap<>();
        String idArray = jsonArray(ids);
        try {
            PreparedStatement selectAccounts = statements.get(connection, SELECT_MANY);
            selectAccounts.setString(1, idArray);
            readAccounts(selectAccounts.executeQuery(), accounts);
            PreparedStatement selectGrants = statements.get(connection, GRANTS_OF_MANY);
            selectGrants.setString(1, idArray);
            readGrants(selectGrants.executeQuery(), accounts);
        } catch (SQLException | RuntimeException e) {
            statements.forget(connection);
            throw e;
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
        String idArray = jsonArray(ids);
        try {
            Map<String, Reservation> named = new HashMap<>();
            PreparedStatement rows = statements.get(connection, RESERVATIONS_OF_MANY);
            rows.setString(1, idArray);
            ReservationRows.reservations(rows.executeQuery(), named);
            PreparedStatement draws = statements.get(connection, DRAWS_OF_MANY);
            draws.setString(1, jsonArray(named.keySet()));
            ReservationRows.draws(draws.executeQuery(), named.keySet(), allocations);
            reservations.putAll(named);
        } catch (SQLException | RuntimeException e) {
            statements.forget(connection);
            throw e;
        }
    }

    /** With statements kept prepared, as the rest of the round's writes. */
    @Override
    void writeReservations(Connection connection, ChangeSet changes) throws SQLException {
        try {
            writeRows(connection, ReservationRows.INSERT, changes.newReservations(), ReservationRows::bindNew);
            ReservationRows.requireEachEndedOne(
                    writeRows(connection, ReservationRows.END, changes.endedReservations(), ReservationRows::bindEnd));
        } catch (SQLException | RuntimeException e) {
            statements.forget(connection);
            throw e;
        }
    }

    /** In-process, a commit costs no round trip: the caller's commit ends the round. */
    @Override
    void writeCommonChanges(Connection connection, ChangeSet changes, boolean endsRound) throws SQLException {
        try {
            writeRows(connection, UPDATE_BALANCE, changes.balances().entrySet(), (ps, change) -> {
                ps.setLong(1, change.getValue());
                ps.setLong(2, changes.at().toEpochMilli());
                ps.setString(3, change.getKey());
            });
            NewDraws draws = NewDraws.of(changes);
            writeRows(connection, INSERT_SPENDING, changes.newSpendings(), (ps, spending) -> {
                ps.setString(1, spending.id());
                ps.setString(2, spending.accountId());
                ps.setLong(3, spending.amount());
                ps.setString(4, status(spending));
                ps.setLong(5, spending.createdAt().toEpochMilli());
                Rows.setOptionalInstant(ps, 6, spending.revertedAt());
                ps.setString(7, draws.soleGrant(spending));
            });
            writeRows(connection, INSERT_GRANT, changes.newGrants(), (ps, grant) -> {
                ps.setString(1, grant.id());
                ps.setString(2, grant.accountId());
                ps.setString(3, grant.kind().wire());
                ps.setLong(4, grant.amount());
                ps.setLong(5, grant.remaining());
                ps.setLong(6, grant.expired());
                Rows.setOptionalInstant(ps, 7, grant.expiresAt());
                Rows.setOptionalInstant(ps, 8, grant.periodStart());
                ps.setLong(9, grant.createdAt().toEpochMilli());
                ps.setBoolean(10, grant.remaining() > 0);
            });
            writeChangedGrants(connection, changes.changedGrants());
            writeRows(connection, INSERT_ALLOCATION, draws.rows(), (ps, allocation) -> {
                ps.setString(1, allocation.spendingId());
                ps.setString(2, allocation.grantId());
                ps.setLong(3, allocation.amount());
                ps.setLong(4, allocation.returned());
            });
            writeRows(connection, INSERT_LINE, changes.lines(), (ps, line) -> {
                ps.setString(1, line.accountId());
                ps.setString(2, line.kind().wire());
                ps.setLong(3, line.amount());
                ps.setLong(4, line.balanceAfter());
                ps.setString(5, line.spendingId().orElse(null));
                ps.setString(6, line.grantId().orElse(null));
                ps.setString(7, line.reason().orElse(null));
                ps.setLong(8, changes.at().toEpochMilli());
            });
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
        List<Grant> stillLive = grants.stream().filter(g -> g.remaining() > 0).toList();
        int[] updated = writeRows(connection, UPDATE_LIVE_GRANT, stillLive, (ps, grant) -> {
            setGrantChange(ps, grant);
            ps.setString(4, grant.id());
        });
        List<Grant> livenessChanged = new ArrayList<>();
        for (int i = 0; i < stillLive.size(); i++) {
            if (updated[i] == 0) {
                livenessChanged.add(stillLive.get(i));
            }
        }
        grants.stream().filter(g -> g.remaining() == 0).forEach(livenessChanged::add);
        writeRows(connection, UPDATE_GRANT_AND_LIVENESS, livenessChanged, (ps, grant) -> {
            setGrantChange(ps, grant);
            ps.setBoolean(4, grant.remaining() > 0);
            ps.setString(5, grant.id());
        });
    }

    private static void setGrantChange(PreparedStatement ps, Grant grant) throws SQLException {
        ps.setLong(1, grant.remaining());
        ps.setLong(2, grant.expired());
        Rows.setOptionalInstant(ps, 3, grant.expiresAt());
    }

    /** Sets one row's parameters on a statement. */
    @FunctionalInterface
    private interface RowBinder<T> {
        void bind(PreparedStatement statement, T row) throws SQLException;
    }

    /**
     * Writes {@code rows} with one batch of {@code sql}, or touches nothing when there are none; returns
     * the count of rows each one changed.
     */
    private <T> int[] writeRows(Connection connection, String sql, Collection<T> rows, RowBinder<T> binder)
            throws SQLException {
        if (rows.isEmpty()) {
            return new int[0];
        }
        PreparedStatement ps = statements.get(connection, sql);
        for (T row : rows) {
            binder.bind(ps, row);
            ps.addBatch();
        }
        return ps.executeBatch();
    }

    private static String jsonArray(Collection<String> ids) {
        try {
            return JSON.writeValueAsString(ids);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Account ids that do not write as JSON", e);
        }
    }
}
