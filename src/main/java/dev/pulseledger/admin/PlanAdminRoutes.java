package dev.pulseledger.admin;

import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.accounts.PoolAllowance;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.web.PoolParams;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Operator API for plans (CONTRACT §4). */
public final class PlanAdminRoutes {
    private static final Set<String> CREATE_FIELDS = Set.of(
            "id",
            "name",
            "description",
            "allowance",
            "period",
            "rollover",
            "monthlyTokens",
            "rateLimitPerMinute",
            "sla",
            "pools");
    private static final Set<String> UPDATE_FIELDS = Set.of(
            "name",
            "description",
            "allowance",
            "period",
            "rollover",
            "monthlyTokens",
            "rateLimitPerMinute",
            "sla",
            "pools");
    private static final Set<String> POOL_FIELDS = Set.of("allowance", "rollover");
    public static final long MAX_RATE_LIMIT_PER_MINUTE = 10_000_000L;

    private final PlanStore plans;
    private final Clock clock;

    public PlanAdminRoutes(PlanStore plans, Clock clock) {
        this.plans = plans;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/plans", this::create)
                .get("/admin/plans", this::list)
                .get("/admin/plans/{planId}", this::get)
                .put("/admin/plans/{planId}", this::update);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        Instant now = clock.instant();
        Plan plan = plan(body.requiredSlug("id"), body, now, now);
        refuseUnknownServices(plan);
        if (!plans.create(plan)) {
            throw new ProblemException(ProblemCode.PLAN_EXISTS, "A plan with id '" + plan.id() + "' exists already.");
        }
        res.header(Responses.LOCATION, "/admin/plans/" + plan.id());
        Responses.json(res, 201, PlanJson.of(plan));
    }

    private void list(ServerRequest req, ServerResponse res) {
        Responses.ok(res, new DataList<>(plans.list().stream().map(PlanJson::of).toList()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Plan plan = plans.find(Requests.pathParam(req, "planId")).orElseThrow(PlanAdminRoutes::notFound);
        Responses.ok(res, PlanJson.of(plan));
    }

    private void update(ServerRequest req, ServerResponse res) {
        String planId = Requests.pathParam(req, "planId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), UPDATE_FIELDS);
        Plan current = plans.find(planId).orElseThrow(PlanAdminRoutes::notFound);
        Plan updated = plan(planId, body, current.createdAt(), clock.instant());
        refuseUnknownServices(updated);
        if (!plans.update(updated)) {
            throw notFound();
        }
        Responses.ok(res, PlanJson.of(updated));
    }

    private static Plan plan(String id, JsonBody body, Instant createdAt, Instant updatedAt) {
        Optional<Long> monthlyTokens = body.optionalLong("monthlyTokens", 0, Plan.MAX_ALLOWANCE);
        if (monthlyTokens.isPresent() && body.has("allowance")) {
            throw ProblemException.invalidField("monthlyTokens", "give either allowance or monthlyTokens, not both");
        }
        PlanPeriod period = body.optionalString("period", 10)
                .map(text -> PlanPeriod.fromWire(text)
                        .orElseThrow(() -> ProblemException.invalidField("period", "must be day, week, month or year")))
                .orElse(PlanPeriod.MONTH);
        if (monthlyTokens.isPresent() && period != PlanPeriod.MONTH) {
            throw ProblemException.invalidField(
                    "monthlyTokens", "means a monthly allowance; use allowance with period");
        }
        long allowance = monthlyTokens
                .or(() -> body.optionalLong("allowance", 0, Plan.MAX_ALLOWANCE))
                .orElse(0L);
        return new Plan(
                id,
                body.requiredNonBlank("name", 200),
                body.optionalString("description", 2000).orElse(""),
                allowance,
                period,
                body.optionalLong("rollover", 0, Plan.MAX_ALLOWANCE).orElse(0L),
                body.optionalLong("rateLimitPerMinute", 1, MAX_RATE_LIMIT_PER_MINUTE),
                SlaField.read(body),
                createdAt,
                updatedAt,
                pools(body));
    }

    /** {@code "pools": {"images": {"allowance", "rollover"}}}: at most 15 named pools beside default. */
    private static Map<String, PoolAllowance> pools(JsonBody body) {
        Map<String, PoolAllowance> pools = new TreeMap<>();
        Map<String, JsonBody> named = body.optionalObjectMap("pools", Pools.MAX_PER_ACCOUNT - 1, POOL_FIELDS)
                .orElse(Map.of());
        for (Map.Entry<String, JsonBody> pool : named.entrySet()) {
            String name = PoolParams.checked(pool.getKey());
            if (name.equals(Pools.DEFAULT)) {
                throw ProblemException.invalidField("pools.default", "is the plan's own allowance and rollover");
            }
            pools.put(
                    name,
                    new PoolAllowance(
                            pool.getValue()
                                    .optionalLong("allowance", 0, Plan.MAX_ALLOWANCE)
                                    .orElse(0L),
                            pool.getValue()
                                    .optionalLong("rollover", 0, Plan.MAX_ALLOWANCE)
                                    .orElse(0L)));
        }
        return pools;
    }

    private void refuseUnknownServices(Plan plan) {
        plan.sla().map(sla -> plans.unknownServices(sla.services())).ifPresent(unknown -> {
            if (!unknown.isEmpty()) {
                throw ProblemException.invalidField(
                        "sla.services", "names a service that does not exist: " + unknown.getFirst());
            }
        });
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.PLAN_NOT_FOUND, "No plan has this id.");
    }
}
