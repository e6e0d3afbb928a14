package dev.pulseledger.accounts;

import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A subscription plan: {@code allowance} tokens granted each {@code period}, of which at most
 * {@code rollover} unused ones carry into the next period; {@code rateLimitPerMinute} caps requests per
 * caller key when present; {@code sla} promises credits when its services' uptime falls short (§13). The
 * allowance is the {@code default} pool's; {@code pools} grants in named pools (CONTRACT §14).
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
        Instant updatedAt,
        Map<String, PoolAllowance> pools) {

    /** The most tokens a plan may grant per period (CONTRACT §7). */
    public static final long MAX_ALLOWANCE = 1_000_000_000_000L;

    public Plan {
        pools = Collections.unmodifiableMap(new TreeMap<>(pools));
    }

    /** The same plan granting in {@code pools} instead. */
    public Plan withPools(Map<String, PoolAllowance> newPools) {
        return new Plan(
                id,
                name,
                description,
                allowance,
                period,
                rollover,
                rateLimitPerMinute,
                sla,
                createdAt,
                updatedAt,
                newPools);
    }
}
