package dev.pulseledger.ledger.read;

import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.ledger.db.ReservationRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL that reads reservations back, for their owner and for operators. */
public final class ReservationQueries {
    private static final String SELECT_ONE =
            "SELECT " + ReservationRows.COLUMNS + " FROM reservations WHERE id = ? AND account_id = ?";
    private static final String SELECT_PAGE = "SELECT " + ReservationRows.COLUMNS
            + " FROM reservations WHERE account_id = ? AND seq < ? AND (CAST(? AS TEXT) IS NULL OR status = ?)"
            + " ORDER BY seq DESC LIMIT ?";
    private static final String SELECT_HELD_TOKENS =
            "SELECT COALESCE(SUM(amount), 0) FROM reservations WHERE status = 'held'";

    private final Database database;

    public ReservationQueries(Database database) {
        this.database = database;
    }

    /** The reservation, if it exists and belongs to the account. */
    public Optional<Reservation> find(String accountId, String reservationId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, reservationId);
                ps.setString(2, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(ReservationRows.reservation(rs)) : Optional.empty();
                }
            }
        });
    }

    /** The account's reservations (of one status, if given) newest first, before sequence {@code beforeSeq}. */
    public Page<Reservation> list(String accountId, Optional<ReservationStatus> status, long beforeSeq, int limit) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_PAGE)) {
                ps.setString(1, accountId);
                ps.setLong(2, beforeSeq);
                ps.setString(3, status.map(ReservationStatus::wire).orElse(null));
                ps.setString(4, status.map(ReservationStatus::wire).orElse(null));
                ps.setInt(5, limit + 1);
                List<Sequenced> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Sequenced(rs.getLong("seq"), ReservationRows.reservation(rs)));
                    }
                }
                Page<Sequenced> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(
                        page.items().stream().map(Sequenced::reservation).toList(), page.nextPosition());
            }
        });
    }

    /** The tokens all live reservations hold, on every account. */
    public long heldTokens() {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_HELD_TOKENS);
                    ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    private record Sequenced(long seq, Reservation reservation) {}
}
