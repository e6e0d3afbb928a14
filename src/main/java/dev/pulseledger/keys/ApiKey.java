package dev.pulseledger.keys;

import java.time.Instant;
import java.util.Optional;

/** What is stored of a caller key: never the key itself, only its hash and a short prefix. */
public record ApiKey(
        String id,
        String accountId,
        String name,
        String prefix,
        Instant createdAt,
        Optional<Instant> expiresAt,
        Optional<Instant> revokedAt) {}
