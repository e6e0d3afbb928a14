package dev.pulseledger.ratelimit;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.keys.AccessChange;
import dev.pulseledger.keys.AccessFeed;
import dev.pulseledger.keys.KeyDirectory;
import java.util.Optional;

/**
 * Each plan's {@code rateLimitPerMinute}, cached until the access change feed reports the plan
 * edited, so an edited plan applies on every node as soon as a revoked key does.
 */
public final class PlanRateLimits implements AccessFeed.Listener {
    private static final long MAX_CACHED_PLANS = 10_000;

    private final PlanStore plans;
    private final AccessFeed feed;
    private final Cache<String, Optional<Long>> limits = Caffeine.newBuilder()
            .expireAfterWrite(KeyDirectory.CACHE_TTL)
            .maximumSize(MAX_CACHED_PLANS)
            .build();

    public PlanRateLimits(PlanStore plans, AccessFeed feed) {
        this.plans = plans;
        this.feed = feed;
        feed.subscribe(this);
    }

    /** The plan's requests per minute per key; empty when the plan sets no limit. */
    public Optional<Long> perMinute(String planId) {
        if (!feed.trusted()) {
            limits.invalidate(planId);
        }
        return limits.get(planId, id -> plans.find(id).flatMap(Plan::rateLimitPerMinute));
    }

    @Override
    public void changed(AccessChange change) {
        if (change.kind() == AccessChange.Kind.PLAN) {
            limits.invalidate(change.subject());
        }
    }

    @Override
    public void lost() {
        limits.invalidateAll();
    }
}
