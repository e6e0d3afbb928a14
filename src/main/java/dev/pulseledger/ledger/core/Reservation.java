package dev.pulseledger.ledger.core;

import java.time.Instant;
import java.util.Optional;

/**
 * Tokens held from one pool of an account until a settle turns part of them into a spending, a release returns them,
 * or {@code expiresAt} comes (CONTRACT §8). Once ended, {@code endBalance} is the account's balance right
 * after, so that a repeated settle or release answers with the same body.
 */
public record Reservation(
        String id,
        String accountId,
        String pool,
        long amount,
        ReservationStatus status,
        Instant createdAt,
        Instant expiresAt,
        Optional<Long> settledAmount,
        Optional<String> spendingId,
        Optional<Instant> endedAt,
        Optional<Long> endBalance,
        Optional<String> keyId) {

    public Reservation {
        if (amount <= 0 || (status == ReservationStatus.HELD) == endedAt.isPresent()) {
            throw new IllegalStateException("A reservation does not add up: " + id);
        }
    }

    static Reservation held(
            String id,
            String accountId,
            String pool,
            long amount,
            Instant createdAt,
            Instant expiresAt,
            Optional<String> keyId) {
        return new Reservation(
                id,
                accountId,
                pool,
                amount,
                ReservationStatus.HELD,
                createdAt,
                expiresAt,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                keyId);
    }

    /** True once its expiry has come while it was still held. */
    boolean dueBy(Instant now) {
        return status == ReservationStatus.HELD && !expiresAt.isAfter(now);
    }

    Reservation settled(long settled, Optional<String> spending, Instant at, long balance) {
        return new Reservation(
                id,
                accountId,
                pool,
                amount,
                ReservationStatus.SETTLED,
                createdAt,
                expiresAt,
                Optional.of(settled),
                spending,
                Optional.of(at),
                Optional.of(balance),
                keyId);
    }

    /** Released or expired: every held token returned. */
    Reservation returned(ReservationStatus end, Instant at, long balance) {
        return new Reservation(
                id,
                accountId,
                pool,
                amount,
                end,
                createdAt,
                expiresAt,
                Optional.empty(),
                Optional.empty(),
                Optional.of(at),
                Optional.of(balance),
                keyId);
    }
}
