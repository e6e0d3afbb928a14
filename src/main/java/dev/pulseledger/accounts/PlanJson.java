package dev.pulseledger.accounts;

import dev.pulseledger.http.Times;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shape of a plan, the same for callers and operators. */
public final class PlanJson {
    private PlanJson() {}

    public static Map<String, Object> of(Plan plan) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", plan.id());
        body.put("name", plan.name());
        body.put("description", plan.description());
        body.put("monthlyTokens", plan.monthlyTokens().orElse(null));
        body.put("rateLimitPerMinute", plan.rateLimitPerMinute().orElse(null));
        body.put("createdAt", Times.format(plan.createdAt()));
        body.put("updatedAt", Times.format(plan.updatedAt()));
        return body;
    }
}
