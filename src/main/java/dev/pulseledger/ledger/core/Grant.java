package dev.pulseledger.ledger.core;

import java.time.Instant;
import java.util.Comparator;
import java.util.Optional;

/**
 * Tokens from one credit or one period's allowance. Of its {@code amount}, {@code remaining} can be
 * spent, {@code expired} expired, and the rest is held by spendings; {@code periodStart} names the
 * period of an allowance grant (for the prorated grant of a plan change within a period, the instant the
 * change made it, CONTRACT §13). Its tokens belong to one {@code pool} (CONTRACT §14).
 */
public record Grant(
        String id,
        String accountId,
        String pool,
        GrantKind kind,
        long amount,
        long remaining,
        long expired,
        Optional<Instant> expiresAt,
        Optional<Instant> periodStart,
        Instant createdAt) {

    /** Spending order: the soonest expiry first, never-expiring grants last, then the oldest first. */
    public static final Comparator<Grant> SPENDING_ORDER = Comparator.comparing(
                    (Grant g) -> g.expiresAt().orElse(Instant.MAX))
            .thenComparing(Grant::createdAt)
            .thenComparing(Grant::id);

    public Grant {
        if (amount <= 0 || remaining < 0 || expired < 0 || remaining + expired > amount) {
            throw new IllegalStateException("A grant's tokens do not add up: " + id);
        }
    }

    /** True once the grant's expiry has come: from that instant on, nothing can be spent from it. */
    public boolean expiredBy(Instant now) {
        return expiresAt.isPresent() && !expiresAt.get().isAfter(now);
    }

    Grant withRemaining(long newRemaining) {
        return new Grant(id, accountId, pool, kind, amount, newRemaining, expired, expiresAt, periodStart, createdAt);
    }

    /** {@code tokens} of the remaining ones expire. */
    Grant expire(long tokens) {
        return new Grant(
                id,
                accountId,
                pool,
                kind,
                amount,
                remaining - tokens,
                expired + tokens,
                expiresAt,
                periodStart,
                createdAt);
    }

    /** {@code tokens} that spendings held come back after the grant expired, and expire at once. */
    Grant expireReturned(long tokens) {
        return new Grant(
                id, accountId, pool, kind, amount, remaining, expired + tokens, expiresAt, periodStart, createdAt);
    }

    Grant expiringAt(Instant at) {
        return new Grant(
                id, accountId, pool, kind, amount, remaining, expired, Optional.of(at), periodStart, createdAt);
    }
}
