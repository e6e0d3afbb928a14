package dev.pulseledger.keys;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Optional;

/**
 * Everything authentication needs to know about a presented key hash, joined from the key and its
 * account in one query.
 */
public record KeyGrant(
        String keyId,
        String accountId,
        String planId,
        boolean accountSuspended,
        Optional<Instant> expiresAt,
        Optional<Instant> revokedAt) {

    /**
     * Not revoked, and not expired by the time {@code clock} reads now; the clock is read only for a key
     * that expires (a read of the wall clock was 2 % of a spend's CPU on the node).
     */
    public boolean usable(InstantSource clock) {
        return revokedAt.isEmpty()
                && expiresAt.map(expiry -> clock.instant().isBefore(expiry)).orElse(true);
    }
}
