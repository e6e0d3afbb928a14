package dev.pulseledger.admin;

import dev.pulseledger.accounts.LowBalanceThresholds;
import dev.pulseledger.accounts.LowBalanceThresholds.AccountThreshold;
import dev.pulseledger.accounts.LowBalanceThresholds.PlanThreshold;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.web.LedgerProblems;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Operator API for the thresholds behind {@code balance.low} events: one per plan, optionally
 * overridden per account. {@code null} clears a threshold.
 */
public final class LowBalanceAdminRoutes {
    static final String FIELD = "lowBalanceThreshold";
    private static final Set<String> FIELDS = Set.of(FIELD);

    private final LowBalanceThresholds thresholds;

    public LowBalanceAdminRoutes(LowBalanceThresholds thresholds) {
        this.thresholds = thresholds;
    }

    public void register(RouteTable routes) {
        routes.get("/admin/plans/{planId}/low-balance-threshold", this::getForPlan)
                .put("/admin/plans/{planId}/low-balance-threshold", this::setForPlan)
                .get("/admin/accounts/{accountId}/low-balance-threshold", this::getForAccount)
                .put("/admin/accounts/{accountId}/low-balance-threshold", this::setForAccount);
    }

    private void getForPlan(ServerRequest req, ServerResponse res) {
        PlanThreshold plan =
                thresholds.forPlan(Requests.pathParam(req, "planId")).orElseThrow(LowBalanceAdminRoutes::planNotFound);
        Responses.ok(res, json(plan));
    }

    private void setForPlan(ServerRequest req, ServerResponse res) {
        Optional<Long> threshold = threshold(req);
        PlanThreshold plan = thresholds
                .setForPlan(Requests.pathParam(req, "planId"), threshold)
                .orElseThrow(LowBalanceAdminRoutes::planNotFound);
        Responses.ok(res, json(plan));
    }

    private void getForAccount(ServerRequest req, ServerResponse res) {
        AccountThreshold account = thresholds
                .forAccount(Requests.pathParam(req, "accountId"))
                .orElseThrow(LedgerProblems::accountNotFound);
        Responses.ok(res, json(account));
    }

    private void setForAccount(ServerRequest req, ServerResponse res) {
        Optional<Long> threshold = threshold(req);
        AccountThreshold account = thresholds
                .setForAccount(Requests.pathParam(req, "accountId"), threshold)
                .orElseThrow(LedgerProblems::accountNotFound);
        Responses.ok(res, json(account));
    }

    /** The body's threshold: a whole number of tokens, or null to clear it; the field must be there. */
    private static Optional<Long> threshold(ServerRequest req) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), FIELDS);
        if (!body.has(FIELD)) {
            throw ProblemException.invalidField(FIELD, "is required (null clears the threshold)");
        }
        return body.optionalLong(FIELD, 1, LedgerCore.MAX_BALANCE);
    }

    record PlanThresholdBody(String planId, @Nullable Long lowBalanceThreshold) {}

    record AccountThresholdBody(
            String accountId,
            @Nullable Long lowBalanceThreshold,
            @Nullable Long planLowBalanceThreshold,
            @Nullable Long effectiveLowBalanceThreshold) {}

    private static PlanThresholdBody json(PlanThreshold plan) {
        return new PlanThresholdBody(plan.planId(), plan.threshold().orElse(null));
    }

    private static AccountThresholdBody json(AccountThreshold account) {
        return new AccountThresholdBody(
                account.accountId(),
                account.own().orElse(null),
                account.plan().orElse(null),
                account.effective().orElse(null));
    }

    private static ProblemException planNotFound() {
        return new ProblemException(ProblemCode.PLAN_NOT_FOUND, "No plan has this id.");
    }
}
