package dev.pulseledger.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.ledger.core.CancelPlanChangeResult;
import dev.pulseledger.ledger.core.InPeriodChangeResult;
import dev.pulseledger.ledger.core.PlanChangeTiming;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.web.LedgerProblems;
import dev.pulseledger.ledger.write.LedgerWriter;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Plan changes within a period (CONTRACT §13): {@code POST /admin/accounts/{id}/plan-change} with
 * {@code "when": "now"} (the period kept, the new allowance prorated) or {@code "period_end"} (waits for the
 * renewal), and {@code DELETE} of the waiting change.
 */
public final class PlanChangeRoutes {
    private static final Set<String> FIELDS = Set.of("planId", "when");
    private static final String PATH = "/admin/accounts/{accountId}/plan-change";

    private final Authenticator authenticator;
    private final LedgerWriter ledger;

    public PlanChangeRoutes(Authenticator authenticator, LedgerWriter ledger) {
        this.authenticator = authenticator;
        this.ledger = ledger;
    }

    public void register(RouteTable routes) {
        routes.post(PATH, this::change).delete(PATH, this::cancel);
    }

    /**
     * The answer to a plan change: for {@code now}, the plan moved from, the period kept and what expired and
     * was granted; for {@code period_end}, the waiting change and the plan of the one it replaced.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ChangeBody(
            String accountId,
            String when,
            String planId,
            @Nullable String previousPlanId,
            @Nullable String at,
            PlanJson.@Nullable PeriodBody currentPeriod,
            @Nullable Long expired,
            @Nullable Long granted,
            @Nullable Long balance,
            PlanJson.@Nullable PendingChangeBody pendingChange,
            @Nullable String replacedPlanId) {}

    /** The answer to a cancel: the change that no longer waits. */
    record CancelBody(String accountId, PlanJson.PendingChangeBody cancelled) {}

    private void change(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), FIELDS);
        String planId = body.requiredSlug("planId");
        String text = body.requiredString("when", 20);
        PlanChangeTiming when = PlanChangeTiming.fromWire(text)
                .orElseThrow(() -> ProblemException.invalidField("when", "must be now or period_end"));
        switch (Queued.call(() -> ledger.changePlanInPeriod(accountId, planId, when))) {
            case InPeriodChangeResult.Changed changed -> {
                authenticator.catchUp(); // the plan sets the keys' rate limit
                Responses.ok(
                        res,
                        new ChangeBody(
                                accountId,
                                when.wire(),
                                changed.planId(),
                                changed.previousPlanId(),
                                Times.format(changed.at()),
                                new PlanJson.PeriodBody(
                                        Times.format(changed.period().start()),
                                        Times.format(changed.period().end())),
                                changed.expired(),
                                changed.granted(),
                                changed.balance(),
                                null,
                                null));
            }
            case InPeriodChangeResult.Scheduled scheduled ->
                Responses.ok(
                        res,
                        new ChangeBody(
                                accountId,
                                when.wire(),
                                scheduled.pending().planId(),
                                scheduled.currentPlanId(),
                                Times.format(scheduled.pending().at()),
                                null,
                                null,
                                null,
                                null,
                                new PlanJson.PendingChangeBody(
                                        scheduled.pending().planId(),
                                        Times.format(scheduled.pending().at())),
                                scheduled.replaced().orElse(null)));
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void cancel(ServerRequest req, ServerResponse res) {
        switch (Queued.call(() -> ledger.cancelPlanChange(Requests.pathParam(req, "accountId")))) {
            case CancelPlanChangeResult.Cancelled cancelled ->
                Responses.ok(
                        res,
                        new CancelBody(
                                Requests.pathParam(req, "accountId"),
                                new PlanJson.PendingChangeBody(
                                        cancelled.cancelled().planId(),
                                        Times.format(cancelled.cancelled().at()))));
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }
}
