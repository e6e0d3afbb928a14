package dev.pulseledger.keys;

import java.time.Instant;
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

    public boolean usableAt(Instant now) {
        return revokedAt.isEmpty() && expiresAt.map(now::isBefore).orElse(true);
    }
}
