package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CONTRACT §4: plans, and moving accounts between them. */
class PlanAdminContractTest extends ContractTest {
    @Test
    void theFreePlanExistsFromTheFirstStart() {
        assertThat(plans()).anySatisfy(plan -> {
            assertThat(plan.path("id").asText()).isEqualTo("free");
            assertThat(plan.path("name").asText()).isEqualTo("Free");
        });
        Reply account = admin().post("/admin/accounts", Map.of("name", "no plan given"));
        assertThat(account.status()).isEqualTo(201);
        assertThat(account.json().path("planId").asText()).isEqualTo("free");
    }

    @Test
    void aNewPlanIs201AndListed() {
        Reply created = admin().post(
                        "/admin/plans",
                        Map.of(
                                "id", "pro",
                                "name", "Pro",
                                "description", "For teams",
                                "monthlyTokens", 100_000,
                                "rateLimitPerMinute", 600));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode plan = created.json();
        assertThat(plan.path("id").asText()).isEqualTo("pro");
        assertThat(plan.path("name").asText()).isEqualTo("Pro");
        assertThat(plan.path("description").asText()).isEqualTo("For teams");
        assertThat(plan.path("monthlyTokens").asLong()).isEqualTo(100_000);
        assertThat(plan.path("rateLimitPerMinute").asLong()).isEqualTo(600);
        assertThat(plan.path("createdAt").asText()).matches(RFC_3339_UTC);
        assertThat(created.header("Location")).contains("/admin/plans/pro");
        assertThat(plans()).contains(plan);
        assertThat(admin().get("/admin/plans/pro").json()).isEqualTo(plan);
    }

    @Test
    void aDuplicatePlanIs409AndChangesNothing() {
        admin().post("/admin/plans", Map.of("id", "twice", "name", "First"));
        List<JsonNode> before = plans();
        assertProblem(admin().post("/admin/plans", Map.of("id", "twice", "name", "Second")), 409, "plan_exists");
        assertProblem(admin().post("/admin/plans", Map.of("id", "free", "name", "Not free")), 409, "plan_exists");
        assertThat(plans()).isEqualTo(before);
    }

    @Test
    void anUpdateIs200AndCallersSeeIt() {
        admin().post("/admin/plans", Map.of("id", "team", "name", "Team"));
        Fixtures.Caller caller = fixtures.caller(0);
        admin().put("/admin/accounts/" + caller.accountId() + "/plan", Map.of("planId", "team"));

        Reply updated = admin().put("/admin/plans/team", Map.of("name", "Team Plus", "monthlyTokens", 5000));
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.json().path("id").asText()).isEqualTo("team");
        assertThat(updated.json().path("name").asText()).isEqualTo("Team Plus");
        assertThat(updated.json().path("monthlyTokens").asLong()).isEqualTo(5000);
        assertThat(admin().get("/admin/plans/team").json()).isEqualTo(updated.json());
        assertThat(caller(caller).get("/api/tokens/plan").json().path("name").asText())
                .isEqualTo("Team Plus");
    }

    @Test
    void updatingAnUnknownPlanIs404() {
        List<JsonNode> before = plans();
        assertProblem(admin().put("/admin/plans/nowhere", Map.of("name", "Nowhere")), 404, "plan_not_found");
        assertThat(plans()).isEqualTo(before);
    }

    @Test
    void badPlanInputIs400NamingTheFieldAndChangesNothing() {
        List<JsonNode> before = plans();
        assertBadField(admin().post("/admin/plans", Map.of("id", "Pro Plan", "name", "x")), "invalid_request", "id");
        assertBadField(admin().post("/admin/plans", Map.of("name", "x")), "invalid_request", "id");
        assertBadField(
                admin().post("/admin/plans", Map.of("id", "x".repeat(64), "name", "x")), "invalid_request", "id");
        assertBadField(admin().post("/admin/plans", Map.of("id", "nameless")), "invalid_request", "name");
        assertBadField(
                admin().post("/admin/plans", Map.of("id", "neg", "name", "x", "monthlyTokens", -1)),
                "invalid_request",
                "monthlyTokens");
        assertBadField(
                admin().post("/admin/plans", Map.of("id", "typo", "name", "x", "monthlyTokenz", 1)),
                "invalid_request",
                "monthlyTokenz");
        assertBadField(admin().put("/admin/plans/free", Map.of("name", "")), "invalid_request", "name");
        assertThat(plans()).isEqualTo(before);
    }

    @Test
    void aPlanChangeIs200AndTheCallerSeesTheNewPlan() {
        admin().post("/admin/plans", Map.of("id", "scale", "name", "Scale"));
        Fixtures.Caller caller = fixtures.caller(100);

        Reply changed = admin().put("/admin/accounts/" + caller.accountId() + "/plan", Map.of("planId", "scale"));
        assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
        assertThat(changed.json().path("planId").asText()).isEqualTo("scale");
        assertThat(changed.json().path("balance").asLong()).isEqualTo(100);
        JsonNode plan = caller(caller).get("/api/tokens/plan").json();
        assertThat(plan.path("id").asText()).isEqualTo("scale");
        assertThat(plan.path("name").asText()).isEqualTo("Scale");
    }

    @Test
    void anUnknownPlanIs422UnknownPlanAndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(100);
        AccountState before = state(caller.accountId());
        int accounts = everyItem(admin(), "/admin/accounts").size();

        assertProblem(admin().post("/admin/accounts", Map.of("name", "x", "planId", "nope")), 422, "unknown_plan");
        assertProblem(
                admin().put("/admin/accounts/" + caller.accountId() + "/plan", Map.of("planId", "nope")),
                422,
                "unknown_plan");
        assertProblem(
                admin().put("/admin/accounts/acct_nope/plan", Map.of("planId", "free")), 404, "account_not_found");
        assertBadField(
                admin().put("/admin/accounts/" + caller.accountId() + "/plan", Map.of()), "invalid_request", "planId");

        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(everyItem(admin(), "/admin/accounts")).hasSize(accounts);
    }

    private List<JsonNode> plans() {
        Reply reply = admin().get("/admin/plans");
        assertThat(reply.status()).isEqualTo(200);
        return reply.json().path("data").valueStream().toList();
    }
}
