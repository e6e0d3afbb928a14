package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Optional;

/**
 * A subscription plan. {@code monthlyTokens} is informational; {@code rateLimitPerMinute} caps
 * requests per caller key when present.
 */
public record Plan(
        String id,
        String name,
        String description,
        Optional<Long> monthlyTokens,
        Optional<Long> rateLimitPerMinute,
        Instant createdAt,
        Instant updatedAt) {}
