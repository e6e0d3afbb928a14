package dev.pulseledger.ledger.core;

import dev.pulseledger.events.NewEvent;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** How a hold ends by giving its tokens back: released by its owner, or expired when its time comes (§8). */
final class HoldRules {
    private final BatchState batch;
    private final GrantRules grants;
    private final KeyBudgetRules budgets;

    HoldRules(BatchState batch, GrantRules grants, KeyBudgetRules budgets) {
        this.batch = batch;
        this.grants = grants;
        this.budgets = budgets;
    }

    /** The reservation as it stands, expired first if its expiry has come while it was held. */
    Reservation endIfDue(WorkingAccount account, String reservationId) {
        Reservation reservation = Objects.requireNonNull(batch.reservations.get(reservationId), reservationId);
        return reservation.dueBy(batch.now) ? returnHold(account, reservation, ReservationStatus.EXPIRED) : reservation;
    }

    /** Ends the reservation by returning everything it holds: released, or expired with an event. */
    Reservation returnHold(WorkingAccount account, Reservation reservation, ReservationStatus end) {
        String pool = reservation.pool();
        releaseLine(account, reservation);
        grants.giveBack(account, reservation.id(), reservation.amount());
        Reservation ended = reservation.returned(end, batch.now, account.balance(pool));
        end(ended);
        if (end == ReservationStatus.EXPIRED) {
            batch.changes.events.add(NewEvent.reservationExpired(
                    account.id, ended.id(), ended.amount(), ended.expiresAt(), account.balance(pool)));
        }
        return ended;
    }

    /**
     * Everything the reservation holds goes back to its pool's balance, with a release line, and to its key's
     * budgets in the window it was made in.
     */
    void releaseLine(WorkingAccount account, Reservation reservation) {
        budgets.count(account.id, charge(reservation), reservation.pool(), -reservation.amount());
        batch.addToBalance(account, reservation.pool(), reservation.amount());
        batch.line(
                account,
                reservation.pool(),
                LedgerKind.RELEASE,
                reservation.amount(),
                Optional.of(reservation.id()),
                Optional.empty());
    }

    /** The key a hold is charged to, at the time it was made. */
    static Optional<KeyCharge> charge(Reservation reservation) {
        return reservation.keyId().map(keyId -> new KeyCharge(keyId, reservation.createdAt()));
    }

    void end(Reservation ended) {
        batch.reservations.put(ended.id(), ended);
        batch.changes.endedReservationIds.add(ended.id());
    }

    /** Expires the account's held reservations whose expiry has come, the earliest first. */
    void expireDue(WorkingAccount account) {
        List<Reservation> due = batch.reservations.values().stream()
                .filter(r -> r.accountId().equals(account.id) && r.dueBy(batch.now))
                .sorted(Comparator.comparing(Reservation::expiresAt).thenComparing(Reservation::id))
                .toList();
        for (Reservation reservation : due) {
            returnHold(account, reservation, ReservationStatus.EXPIRED);
        }
    }
}
