package dev.pulseledger.ledger.read;

import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.ledger.db.ReservationRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Sql;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** SQL that reads reservations back, for their owner and for operators. */
public final class ReservationQueries {
    private static final String SELECT_ONE =
            "SELECT " + ReservationRows.COLUMNS + " FROM reservations WHERE id = :id AND account_id = :account_id";
    private static final String SELECT_PAGE = "SELECT " + ReservationRows.COLUMNS
            + " FROM reservations WHERE account_id = :account_id AND seq < :before_seq"
            + " AND (CAST(:status AS TEXT) IS NULL OR status = :status) ORDER BY seq DESC LIMIT :limit";
    private static final String SELECT_HELD_TOKENS =
            "SELECT COALESCE(SUM(amount), 0) FROM reservations WHERE status = 'held'";

    private final Database database;

    public ReservationQueries(Database database) {
        this.database = database;
    }

    /** The reservation, if it exists and belongs to the account. */
    public Optional<Reservation> find(String accountId, String reservationId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("id", reservationId)
                        .bind("account_id", accountId)
                        .map((rs, ctx) -> ReservationRows.reservation(rs))
                        .findOne();
            }
        });
    }

    /** The account's reservations (of one status, if given) newest first, before sequence {@code beforeSeq}. */
    public Page<Reservation> list(String accountId, Optional<ReservationStatus> status, long beforeSeq, int limit) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Sequenced> rows = sql.createQuery(SELECT_PAGE)
                        .bind("account_id", accountId)
                        .bind("before_seq", beforeSeq)
                        .bind("status", status.map(ReservationStatus::wire).orElse(null))
                        .bind("limit", limit + 1)
                        .map((rs, ctx) -> new Sequenced(rs.getLong("seq"), ReservationRows.reservation(rs)))
                        .list();
                Page<Sequenced> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(
                        page.items().stream().map(Sequenced::reservation).toList(), page.nextPosition());
            }
        });
    }

    /** The tokens all live reservations hold, on every account. */
    public long heldTokens() {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_HELD_TOKENS).mapTo(Long.class).one();
            }
        });
    }

    private record Sequenced(long seq, Reservation reservation) {}
}
