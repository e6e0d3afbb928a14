package dev.pulseledger.accounts;

import dev.pulseledger.http.Times;
import org.jspecify.annotations.Nullable;

/** The JSON shape of a plan, the same for callers and operators. */
public record PlanJson(
        String id,
        String name,
        String description,
        @Nullable Long monthlyTokens,
        @Nullable Long rateLimitPerMinute,
        String createdAt,
        String updatedAt) {

    public static PlanJson of(Plan plan) {
        return new PlanJson(
                plan.id(),
                plan.name(),
                plan.description(),
                plan.monthlyTokens().orElse(null),
                plan.rateLimitPerMinute().orElse(null),
                Times.format(plan.createdAt()),
                Times.format(plan.updatedAt()));
    }
}
