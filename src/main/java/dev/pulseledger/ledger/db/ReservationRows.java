package dev.pulseledger.ledger.db;

import dev.pulseledger.ledger.core.Allocation;
import dev.pulseledger.ledger.core.ChangeSet;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The reservations part of a ledger round: reading the due holds of due accounts with their draws from
 * grants, the rows of the reservations a batch names (each store reads those with statements for the whole
 * batch, {@link JdbcLedgerStore#lockAndRead}), and writing new and ended reservations.
 */
public final class ReservationRows {
    public static final String COLUMNS =
            "seq, id, account_id, pool, amount, status, created_at, expires_at, settled_amount,"
                    + " spending_id, ended_at, end_balance, key_id";
    /** {@link #COLUMNS} and the grant that alone paid the hold, if one did (V292): what a ledger round reads. */
    static final String WITH_SOLE_GRANT = COLUMNS + ", grant_id";
    /** What a spending or a reservation drew from each grant (spending_grants), in the order the key keeps. */
    static final String DRAW_COLUMNS = "spending_id, grant_id, amount, returned";

    private static final NamedSql SELECT_DUE = NamedSql.parse("SELECT " + WITH_SOLE_GRANT
            + " FROM reservations WHERE account_id = :account_id AND status = 'held' AND expires_at <= :now");
    private static final NamedSql SELECT_NEXT_DUE = NamedSql.parse("SELECT MIN(expires_at) AS next_expiry"
            + " FROM reservations WHERE account_id = :account_id AND status = 'held' AND expires_at > :now");
    /** Ends a reservation, by id, that is still held. */
    static final String END = "UPDATE reservations SET status = :status, settled_amount = :settled_amount,"
            + " spending_id = :spending_id, ended_at = :ended_at, end_balance = :end_balance"
            + " WHERE id = :id AND status = 'held'";

    private ReservationRows() {}

    /**
     * Reads, for each of {@code dueAccounts}, its held reservations whose expiry has come by {@code now} and
     * when its next one expires, with the draws of each reservation not read already (see {@link
     * #withSoleGrants}).
     */
    static void readDue(
            Connection connection,
            Collection<String> dueAccounts,
            Instant now,
            Map<String, Reservation> reservations,
            Map<String, Instant> holdsDueAfter,
            Map<String, List<Allocation>> allocations,
            Set<String> paidByOneGrant)
            throws SQLException {
        Map<String, Reservation> due = new HashMap<>();
        try (PreparedStatement held = connection.prepareStatement(SELECT_DUE.sql());
                PreparedStatement next = connection.prepareStatement(SELECT_NEXT_DUE.sql())) {
            for (String accountId : dueAccounts) {
                SELECT_DUE.setString(held, "account_id", accountId);
                SELECT_DUE.setLong(held, "now", now.toEpochMilli());
                withSoleGrants(held.executeQuery(), due, allocations, paidByOneGrant);
                SELECT_NEXT_DUE.setString(next, "account_id", accountId);
                SELECT_NEXT_DUE.setLong(next, "now", now.toEpochMilli());
                try (ResultSet rs = next.executeQuery()) {
                    Optional<Instant> expiry = rs.next() ? Rows.optionalInstant(rs, "next_expiry") : Optional.empty();
                    holdsDueAfter.put(accountId, expiry.orElse(Instant.MAX));
                }
            }
        }
        reservations.putAll(due);
        for (String id : due.keySet()) {
            if (!allocations.containsKey(id)) {
                allocations.put(id, JdbcLedgerStore.allocations(connection, id));
            }
        }
    }

    /**
     * Reads rows of {@link #WITH_SOLE_GRANT} into {@code reservations}, by id; a reservation that one grant paid
     * also gets its draw into {@code allocations} (none returned while it is held, all once it has ended) and
     * its id into {@code paidByOneGrant}, whose returns its status keeps. Closes {@code rs}.
     */
    static void withSoleGrants(
            ResultSet rs,
            Map<String, Reservation> reservations,
            Map<String, List<Allocation>> allocations,
            Set<String> paidByOneGrant)
            throws SQLException {
        try (rs) {
            while (rs.next()) {
                Reservation reservation = reservation(rs);
                reservations.put(reservation.id(), reservation);
                String soleGrant = rs.getString("grant_id");
                if (soleGrant != null) {
                    long returned = reservation.status() == ReservationStatus.HELD ? 0 : reservation.amount();
                    allocations.put(
                            reservation.id(),
                            List.of(new Allocation(reservation.id(), soleGrant, reservation.amount(), returned)));
                    paidByOneGrant.add(reservation.id());
                }
            }
        }
    }

    /**
     * Reads the reservations a batch names (rows of {@link #WITH_SOLE_GRANT}) into {@code into}, each that one
     * grant paid with its draw; returns those that several grants paid, whose draws are spending_grants rows
     * still to read. Closes {@code rs}.
     */
    static List<String> readNamed(ResultSet rs, JdbcLedgerStore.LockedReads into) throws SQLException {
        withSoleGrants(rs, into.reservations(), into.allocations(), into.paidByOneGrant());
        return paidBySeveralGrants(into.reservations().keySet(), into.paidByOneGrant());
    }

    /** The reservations among {@code read} that several grants paid: their draws are spending_grants rows. */
    private static List<String> paidBySeveralGrants(Collection<String> read, Set<String> paidByOneGrant) {
        List<String> several = new ArrayList<>();
        for (String id : read) {
            if (!paidByOneGrant.contains(id)) {
                several.add(id);
            }
        }
        return several;
    }

    /**
     * Reads rows of {@link #DRAW_COLUMNS} into {@code allocations}, by spending or reservation id; each of
     * {@code owners} gets its list, an empty one when it drew nothing; closes {@code rs}.
     */
    static void draws(ResultSet rs, Collection<String> owners, Map<String, List<Allocation>> allocations)
            throws SQLException {
        Map<String, List<Allocation>> drawn = new HashMap<>();
        try (rs) {
            while (rs.next()) {
                Allocation allocation = new Allocation(
                        rs.getString("spending_id"),
                        rs.getString("grant_id"),
                        rs.getLong("amount"),
                        rs.getLong("returned"));
                drawn.computeIfAbsent(allocation.spendingId(), id -> new ArrayList<>())
                        .add(allocation);
            }
        }
        for (String owner : owners) {
            allocations.put(owner, drawn.getOrDefault(owner, List.of()));
        }
    }

    public static Reservation reservation(ResultSet rs) throws SQLException {
        return new Reservation(
                rs.getString("id"),
                rs.getString("account_id"),
                rs.getString("pool"),
                rs.getLong("amount"),
                ReservationStatus.fromWire(rs.getString("status")).orElseThrow(),
                Rows.instant(rs, "created_at"),
                Rows.instant(rs, "expires_at"),
                Rows.optionalLong(rs, "settled_amount"),
                Optional.ofNullable(rs.getString("spending_id")),
                Rows.optionalInstant(rs, "ended_at"),
                Rows.optionalLong(rs, "end_balance"),
                Optional.ofNullable(rs.getString("key_id")));
    }

    /** Whether the batch made or ended reservations ({@link JdbcLedgerStore#writeRoundChanges}). */
    static boolean writes(ChangeSet changes) {
        return !changes.newReservations().isEmpty()
                || !changes.endedReservations().isEmpty();
    }

    /**
     * Binds a reservation's id, status and end (settled amount, spending, time and balance): all of {@link
     * #END}, and those columns of a new reservation, which may have ended in the batch that made it.
     */
    static void bindEnd(NamedSql sql, PreparedStatement ps, Reservation r) throws SQLException {
        sql.setString(ps, "id", r.id());
        sql.setString(ps, "status", r.status().wire());
        sql.setNullableLong(ps, "settled_amount", r.settledAmount().orElse(null));
        sql.setString(ps, "spending_id", r.spendingId().orElse(null));
        sql.setNullableLong(ps, "ended_at", JdbcLedgerStore.epochMillis(r.endedAt()));
        sql.setNullableLong(ps, "end_balance", r.endBalance().orElse(null));
    }

    /** The account lock makes the core's decision final: a hold that was not held when ended is a bug. */
    static void requireEachEndedOne(int[] counts) {
        for (int count : counts) {
            if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
                throw new IllegalStateException("A reservation ended twice");
            }
        }
    }
}
