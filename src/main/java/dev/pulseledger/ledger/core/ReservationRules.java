package dev.pulseledger.ledger.core;

import dev.pulseledger.ledger.core.LedgerState.IdempotencyScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reservations (CONTRACT §8): a hold draws tokens from grants like a spend; a settle turns part of them
 * into a spending and gives the rest back; a release gives everything back.
 */
final class ReservationRules {
    private final BatchState batch;
    private final GrantRules grants;
    private final PeriodRules periods;
    private final HoldRules holds;
    private final KeyBudgetRules budgets;

    ReservationRules(
            BatchState batch, GrantRules grants, PeriodRules periods, HoldRules holds, KeyBudgetRules budgets) {
        this.batch = batch;
        this.grants = grants;
        this.periods = periods;
        this.holds = holds;
        this.budgets = budgets;
    }

    ReserveResult reserve(LedgerCommand.Reserve command) {
        Reservation landed = batch.reservations.get(command.reservationId());
        if (landed != null && landed.accountId().equals(command.accountId())) {
            return new ReserveResult.Reserved(
                    landed, periods.upToDate(command.accountId()).balance(landed.pool()), false);
        }
        Optional<IdempotencyScope> scope =
                command.idempotencyKey().map(key -> new IdempotencyScope(command.accountId(), key));
        if (scope.isPresent()) {
            IdempotencyRecord earlier = batch.idempotencyRecord(scope.get());
            if (earlier != null) {
                return earlier.replay(command);
            }
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        String pool = command.pool();
        if (!account.has(pool)) {
            return new ReserveResult.PoolNotFound(pool);
        }
        Optional<BudgetWindow> over = budgets.exceeded(command.keyId(), pool, command.amount());
        if (over.isPresent()) {
            return new ReserveResult.KeyBudgetExceeded(over.get());
        }
        ReserveResult result;
        if (account.balance(pool) >= command.amount()) {
            grants.draw(account, pool, command.reservationId(), command.amount());
            batch.addToBalance(account, pool, -command.amount());
            Reservation held = Reservation.held(
                    command.reservationId(),
                    account.id,
                    pool,
                    command.amount(),
                    batch.now,
                    batch.now.plus(command.lifetime()),
                    command.keyId());
            batch.reservations.put(held.id(), held);
            batch.changes.newReservationIds.add(held.id());
            batch.line(account, pool, LedgerKind.HOLD, -held.amount(), Optional.of(held.id()), Optional.empty());
            account.dueNoLaterThan(held.expiresAt());
            budgets.count(account.id, HoldRules.charge(held), pool, held.amount());
            result = new ReserveResult.Reserved(held, account.balance(pool), false);
        } else {
            result = new ReserveResult.InsufficientBalance(account.balance(pool), command.amount(), false);
        }
        scope.ifPresent(s -> batch.changes.idempotencyRecords.put(s, IdempotencyRecord.of(command, result, batch.now)));
        return result;
    }

    /**
     * Ends a held reservation with a spending of {@code amount} drawn from the grants the hold took, the
     * soonest to expire first; the rest goes back to its grants.
     */
    SettleResult settle(LedgerCommand.Settle command) {
        Reservation named = batch.reservations.get(command.reservationId());
        if (named == null || !named.accountId().equals(command.accountId())) {
            return new SettleResult.NotFound();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        Reservation reservation = holds.endIfDue(account, command.reservationId());
        long amount = command.amount().orElse(reservation.amount());
        switch (reservation.status()) {
            case SETTLED -> {
                return reservation.settledAmount().orElseThrow() == amount
                        ? new SettleResult.Settled(reservation)
                        : new SettleResult.AlreadySettled(reservation);
            }
            case RELEASED, EXPIRED -> {
                return new SettleResult.NotHeld(reservation);
            }
            case HELD -> {}
        }
        if (amount > reservation.amount()) {
            return new SettleResult.AmountExceedsHeld(reservation.amount());
        }
        return new SettleResult.Settled(settleHeld(account, reservation, amount, command.spendingId()));
    }

    private Reservation settleHeld(WorkingAccount account, Reservation reservation, long amount, String spendingId) {
        String pool = reservation.pool();
        holds.releaseLine(account, reservation);
        Map<String, Long> expiredAgain = new LinkedHashMap<>();
        List<Allocation> spent = new ArrayList<>();
        List<Allocation> ended = new ArrayList<>();
        long left = amount;
        for (Allocation allocation :
                grants.inSpendingOrder(batch.allocations.getOrDefault(reservation.id(), List.of()))) {
            long take = Math.min(left, allocation.unreturned());
            if (take > 0) {
                spent.add(new Allocation(spendingId, allocation.grantId(), take, 0));
            }
            grants.returnToGrant(account, allocation.grantId(), allocation.unreturned() - take, expiredAgain);
            ended.add(allocation.returning(allocation.unreturned()));
            left -= take;
        }
        if (left > 0) {
            throw new IllegalStateException(reservation.id() + " holds less than " + amount + " tokens");
        }
        batch.allocations.put(reservation.id(), ended);
        batch.changes.returning.add(reservation.id());
        Optional<String> madeSpending = Optional.empty();
        if (amount > 0) {
            batch.allocations.put(spendingId, spent);
            batch.changes.allocating.add(spendingId);
            batch.addToBalance(account, pool, -amount);
            Optional<KeyCharge> charge = HoldRules.charge(reservation);
            Spending spending =
                    new Spending(spendingId, account.id, pool, amount, 0, batch.now, Optional.empty(), charge);
            batch.putSpending(spending);
            budgets.count(account.id, charge, pool, amount);
            batch.line(account, pool, LedgerKind.SPEND, -amount, Optional.of(spending.id()), Optional.empty());
            madeSpending = Optional.of(spending.id());
        }
        grants.expireReturned(account, reservation.id(), expiredAgain);
        Reservation settled = reservation.settled(amount, madeSpending, batch.now, account.balance(pool));
        holds.end(settled);
        return settled;
    }

    ReleaseResult release(LedgerCommand.Release command) {
        Reservation named = batch.reservations.get(command.reservationId());
        if (named == null || !named.accountId().equals(command.accountId())) {
            return new ReleaseResult.NotFound();
        }
        WorkingAccount account = periods.upToDate(command.accountId());
        Reservation reservation = holds.endIfDue(account, command.reservationId());
        return switch (reservation.status()) {
            case HELD -> new ReleaseResult.Released(holds.returnHold(account, reservation, ReservationStatus.RELEASED));
            case RELEASED -> new ReleaseResult.Released(reservation);
            case SETTLED, EXPIRED -> new ReleaseResult.NotHeld(reservation);
        };
    }
}
