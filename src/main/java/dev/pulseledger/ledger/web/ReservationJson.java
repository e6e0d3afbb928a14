package dev.pulseledger.ledger.web;

import dev.pulseledger.http.Times;
import dev.pulseledger.ledger.core.Reservation;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** The JSON shapes of reservations (CONTRACT §8), for their owner and for operators. */
public final class ReservationJson {
    private ReservationJson() {}

    /** A reservation as it stands. */
    public record ReservationBody(
            String reservationId,
            long amount,
            String status,
            String createdAt,
            String expiresAt,
            @Nullable Long settledAmount,
            @Nullable String spendingId,
            @Nullable String endedAt) {}

    /** A reservation as a change left it, with the account's balance right after. */
    public record ChangedBody(
            String reservationId,
            long amount,
            String status,
            String createdAt,
            String expiresAt,
            @Nullable Long settledAmount,
            @Nullable String spendingId,
            @Nullable String endedAt,
            long balance) {}

    /** The problem extensions of 409 reservation_already_settled, 422 settle_exceeds_held, 409 reservation_not_held. */
    record SettledBody(long settledAmount) {}

    record HeldBody(long held) {}

    record NotHeldBody(String reservationStatus) {}

    public record ReservationPage(
            List<ReservationBody> data, @Nullable String nextCursor) {}

    public static ReservationBody reservation(Reservation r) {
        return new ReservationBody(
                r.id(),
                r.amount(),
                r.status().wire(),
                Times.format(r.createdAt()),
                Times.format(r.expiresAt()),
                r.settledAmount().orElse(null),
                r.spendingId().orElse(null),
                r.endedAt().map(Times::format).orElse(null));
    }

    static ChangedBody changed(Reservation r, long balance) {
        ReservationBody body = reservation(r);
        return new ChangedBody(
                body.reservationId(),
                body.amount(),
                body.status(),
                body.createdAt(),
                body.expiresAt(),
                body.settledAmount(),
                body.spendingId(),
                body.endedAt(),
                balance);
    }

    /** A settled, released or expired reservation, with the balance right after it ended. */
    static ChangedBody ended(Reservation r) {
        return changed(r, r.endBalance().orElseThrow());
    }
}
