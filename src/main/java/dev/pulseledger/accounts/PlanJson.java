package dev.pulseledger.accounts;

import dev.pulseledger.http.Times;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The JSON shape of a plan, the same for callers and operators. */
public final class PlanJson {
    private PlanJson() {}

    public static Map<String, Object> of(Plan plan) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", plan.id());
        body.put("name", plan.name());
        body.put("description", plan.description());
        body.put("allowance", plan.allowance());
        body.put("period", plan.period().wire());
        body.put("rollover", plan.rollover());
        // The field of the first API, kept for its readers: the allowance of a monthly plan.
        body.put("monthlyTokens", plan.period() == PlanPeriod.MONTH ? plan.allowance() : null);
        body.put("rateLimitPerMinute", plan.rateLimitPerMinute().orElse(null));
        body.put("createdAt", Times.format(plan.createdAt()));
        body.put("updatedAt", Times.format(plan.updatedAt()));
        return body;
    }

    /** A plan with an account's current period, as the account's holder sees it. */
    public static Map<String, Object> withPeriod(Plan plan, Optional<Period> currentPeriod) {
        Map<String, Object> body = of(plan);
        body.put("currentPeriod", period(currentPeriod));
        return body;
    }

    /** {@code {"start", "end"}}, or null before an account's first period. */
    public static Map<String, Object> period(Optional<Period> period) {
        if (period.isEmpty()) {
            return null;
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("start", Times.format(period.get().start()));
        body.put("end", Times.format(period.get().end()));
        return body;
    }
}
