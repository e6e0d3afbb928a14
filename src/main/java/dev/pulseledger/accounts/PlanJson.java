package dev.pulseledger.accounts;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pulseledger.http.Times;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The JSON shape of a plan, the same for callers and operators; the caller's view adds its account's
 * {@code currentPeriod}. {@code monthlyTokens}, the field of the first API, is the allowance of a monthly
 * plan and null for other periods. {@code pools} are its named pools' allowances (CONTRACT §14).
 */
public record PlanJson(
        String id,
        String name,
        String description,
        long allowance,
        String period,
        long rollover,
        @Nullable Long monthlyTokens,
        @Nullable Long rateLimitPerMinute,
        @Nullable SlaJson sla,
        String createdAt,
        String updatedAt,
        Map<String, PoolAllowance> pools,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable PeriodBody currentPeriod,
        @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable PendingChangeBody pendingChange) {

    public static PlanJson of(Plan plan) {
        return new PlanJson(
                plan.id(),
                plan.name(),
                plan.description(),
                plan.allowance(),
                plan.period().wire(),
                plan.rollover(),
                plan.period() == PlanPeriod.MONTH ? plan.allowance() : null,
                plan.rateLimitPerMinute().orElse(null),
                plan.sla().map(SlaJson::of).orElse(null),
                Times.format(plan.createdAt()),
                Times.format(plan.updatedAt()),
                plan.pools(),
                null,
                null);
    }

    /** A plan with an account's current period and waiting plan change, as the account's holder sees it. */
    public static PlanJson withPeriod(Plan plan, Optional<Period> currentPeriod, Optional<PendingPlanChange> pending) {
        PlanJson body = of(plan);
        return new PlanJson(
                body.id(),
                body.name(),
                body.description(),
                body.allowance(),
                body.period(),
                body.rollover(),
                body.monthlyTokens(),
                body.rateLimitPerMinute(),
                body.sla(),
                body.createdAt(),
                body.updatedAt(),
                body.pools(),
                PeriodBody.of(currentPeriod),
                PendingChangeBody.of(pending));
    }

    /** A plan's SLA as the API shows it: {@code {"services", "tiers": [{"below", "creditPercent"}]}}. */
    public record SlaJson(List<String> services, List<TierJson> tiers) {
        public static SlaJson of(SlaTerms sla) {
            return new SlaJson(
                    sla.services(),
                    sla.tiers().stream()
                            .map(t -> new TierJson(t.below(), t.creditPercent()))
                            .toList());
        }
    }

    /** One SLA tier. */
    public record TierJson(double below, int creditPercent) {}

    /** A plan change that waits for the period's end (CONTRACT §13): {@code {"planId", "at"}}. */
    public record PendingChangeBody(String planId, String at) {
        /** The change, or null when none waits. */
        public static @Nullable PendingChangeBody of(Optional<PendingPlanChange> pending) {
            return pending.map(p -> new PendingChangeBody(p.planId(), Times.format(p.at())))
                    .orElse(null);
        }
    }

    /** An account's period: {@code start} inclusive, {@code end} exclusive. */
    public record PeriodBody(String start, String end) {
        /** The period, or null before an account's first. */
        public static @Nullable PeriodBody of(Optional<Period> period) {
            return period.map(p -> new PeriodBody(Times.format(p.start()), Times.format(p.end())))
                    .orElse(null);
        }
    }
}
