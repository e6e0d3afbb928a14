package dev.pulseledger.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.keys.Authenticator;
import java.util.Optional;

/**
 * Each plan's {@code rateLimitPerMinute}, cached for as long as key grants are, so that an edited
 * plan applies on every node within {@link Authenticator#CACHE_TTL}.
 */
public final class PlanRateLimits {
    private static final long MAX_CACHED_PLANS = 10_000;

    private final PlanStore plans;
    private final Cache<String, Optional<Long>> limits = Caffeine.newBuilder()
            .expireAfterWrite(Authenticator.CACHE_TTL)
            .maximumSize(MAX_CACHED_PLANS)
            .build();

    public PlanRateLimits(PlanStore plans) {
        this.plans = plans;
    }

    /** The plan's requests per minute per key; empty when the plan sets no limit. */
    public Optional<Long> perMinute(String planId) {
        return limits.get(planId, id -> plans.find(id).flatMap(Plan::rateLimitPerMinute));
    }
}
