package dev.pulseledger.operators;

import java.time.Instant;
import java.util.Optional;

/** What is stored of an operator's admin key: its id, name and display prefix, never the key. */
public record AdminKey(
        String id,
        String operatorId,
        String name,
        Optional<String> prefix,
        Instant createdAt,
        Optional<Instant> revokedAt) {}
