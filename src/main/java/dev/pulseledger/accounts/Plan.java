package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Optional;

/**
 * A subscription plan: {@code allowance} tokens granted each {@code period}, of which at most
 * {@code rollover} unused ones carry into the next period; {@code rateLimitPerMinute} caps requests per
 * caller key when present; {@code sla} promises credits when its services' uptime falls short (§13).
 */
public record Plan(
        String id,
        String name,
        String description,
        long allowance,
        PlanPeriod period,
        long rollover,
        Optional<Long> rateLimitPerMinute,
        Optional<SlaTerms> sla,
        Instant createdAt,
        Instant updatedAt) {

    /** The most tokens a plan may grant per period (CONTRACT §7). */
    public static final long MAX_ALLOWANCE = 1_000_000_000_000L;
}
