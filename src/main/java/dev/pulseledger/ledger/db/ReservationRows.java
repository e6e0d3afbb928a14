package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reservations part of a ledger round, the same SQL on every database: reading the reservations a
 * batch names and the due holds of due accounts, with their draws from grants; writing new and ended
 * reservations.
 */
public final class ReservationRows {
    public static final String COLUMNS = "seq, id, account_id, amount, status, created_at, expires_at, settled_amount,"
            + " spending_id, ended_at, end_balance";
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM reservations WHERE id = ?";
    private static final String SELECT_DUE =
            "SELECT " + COLUMNS + " FROM reservations WHERE account_id = ? AND status = 'held' AND expires_at <= ?";
    private static final String SELECT_NEXT_DUE =
            "SELECT MIN(expires_at) AS next_expiry FROM reservations WHERE account_id = ? AND status = 'held' AND expires_at > ?";
    private static final String INSERT = "INSERT INTO reservations (id, account_id, amount, status, created_at,"
            + " expires_at, settled_amount, spending_id, ended_at, end_balance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String END = "UPDATE reservations SET status = ?, settled_amount = ?, spending_id = ?,"
            + " ended_at = ?, end_balance = ? WHERE id = ? AND status = 'held'";

    private ReservationRows() {}

    /**
     * Reads the reservations {@code ids} names, and for each of {@code dueAccounts} its held
     * reservations whose expiry has come by {@code now} and when its next one expires; with the draws
     * of every reservation read.
     */
    static void read(
            Connection connection,
            Collection<String> ids,
            Collection<String> dueAccounts,
            Instant now,
            Map<String, Reservation> reservations,
            Map<String, Instant> holdsDueAfter,
            Map<String, List<Allocation>> allocations)
            throws SQLException {
        try (PreparedStatement one = connection.prepareStatement(SELECT_ONE)) {
            for (String id : ids) {
                one.setString(1, id);
                readInto(one, reservations);
            }
        }
        if (!dueAccounts.isEmpty()) {
            try (PreparedStatement due = connection.prepareStatement(SELECT_DUE);
                    PreparedStatement next = connection.prepareStatement(SELECT_NEXT_DUE)) {
                for (String accountId : dueAccounts) {
                    due.setString(1, accountId);
                    due.setLong(2, now.toEpochMilli());
                    readInto(due, reservations);
                    next.setString(1, accountId);
                    next.setLong(2, now.toEpochMilli());
                    try (ResultSet rs = next.executeQuery()) {
                        Optional<Instant> expiry =
                                rs.next() ? Rows.optionalInstant(rs, "next_expiry") : Optional.empty();
                        holdsDueAfter.put(accountId, expiry.orElse(Instant.MAX));
                    }
                }
            }
        }
        for (String id : reservations.keySet()) {
            allocations.put(id, JdbcLedgerStore.allocations(connection, id));
        }
    }

    private static void readInto(PreparedStatement ps, Map<String, Reservation> reservations) throws SQLException {
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                Reservation reservation = reservation(rs);
                reservations.put(reservation.id(), reservation);
            }
        }
    }

    public static Reservation reservation(ResultSet rs) throws SQLException {
        return new Reservation(
                rs.getString("id"),
                rs.getString("account_id"),
                rs.getLong("amount"),
                ReservationStatus.fromWire(rs.getString("status")).orElseThrow(),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "expires_at"),
                Rows.optionalLong(rs, "settled_amount"),
                Optional.ofNullable(rs.getString("spending_id")),
                Rows.optionalInstant(rs, "ended_at"),
                Rows.optionalLong(rs, "end_balance"));
    }

    /** Whether {@link #write} has anything to write for these changes. */
    static boolean writes(ChangeSet changes) {
        return !changes.newReservations().isEmpty()
                || !changes.endedReservations().isEmpty();
    }

    /** Inserts the batch's new reservations and ends the earlier ones it ended. */
    static void write(Connection connection, ChangeSet changes) throws SQLException {
        if (!changes.newReservations().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(INSERT)) {
                for (Reservation r : changes.newReservations()) {
                    ps.setString(1, r.id());
                    ps.setString(2, r.accountId());
                    ps.setLong(3, r.amount());
                    ps.setString(4, r.status().wire());
                    ps.setLong(5, r.createdAt().toEpochMilli());
                    ps.setLong(6, r.expiresAt().toEpochMilli());
                    setEnd(ps, 7, r);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
        }
        if (!changes.endedReservations().isEmpty()) {
            try (PreparedStatement ps = connection.prepareStatement(END)) {
                for (Reservation r : changes.endedReservations()) {
                    ps.setString(1, r.status().wire());
                    setEnd(ps, 2, r);
                    ps.setString(6, r.id());
                    ps.addBatch();
                }
                // The account lock makes the core's decision final: a hold that was not held is a bug.
                for (int count : ps.executeBatch()) {
                    if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
                        throw new IllegalStateException("A reservation ended twice");
                    }
                }
            }
        }
    }

    /** Sets settled_amount, spending_id, ended_at and end_balance from {@code index} on. */
    private static void setEnd(PreparedStatement ps, int index, Reservation r) throws SQLException {
        Rows.setOptionalLong(ps, index, r.settledAmount());
        ps.setString(index + 1, r.spendingId().orElse(null));
        Rows.setOptionalInstant(ps, index + 2, r.endedAt());
        Rows.setOptionalLong(ps, index + 3, r.endBalance());
    }
}
