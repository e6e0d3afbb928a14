package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.core.RevokeResult;
import dev.pulseledger.ledger.read.SlaReports;
import dev.pulseledger.ledger.write.LedgerWriter;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

/** SLA credits (CONTRACT §13): the caller's {@code GET /api/tokens/sla}, the operator's preview and revoke. */
public final class SlaRoutes {
    private final AccountStore accounts;
    private final PlanStore plans;
    private final LedgerWriter ledger;
    private final SlaReports reports;
    private final Clock clock;

    public SlaRoutes(AccountStore accounts, PlanStore plans, LedgerWriter ledger, SlaReports reports, Clock clock) {
        this.accounts = accounts;
        this.plans = plans;
        this.ledger = ledger;
        this.reports = reports;
        this.clock = clock;
    }

    /** The caller's route, registered with the other token routes. */
    public void registerApi(RouteTable routes) {
        routes.get("/api/tokens/sla", this::callerSla);
    }

    public void registerAdmin(RouteTable routes) {
        routes.get("/admin/sla/preview", this::preview)
                .post("/admin/accounts/{accountId}/grants/{grantId}/revoke", this::revoke);
    }

    /** The SLA of the caller's plan, its current period so far, and its credits; a due renewal happens first. */
    private void callerSla(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        Account read = accounts.find(caller.accountId()).orElseThrow(SlaRoutes::accountGone);
        Account account = Queued.call(() -> ledger.catchUpIfDue(read.id(), read.dueAt()))
                ? accounts.find(caller.accountId()).orElseThrow(SlaRoutes::accountGone)
                : read;
        Plan plan = plans.find(account.planId()).orElseThrow(SlaRoutes::accountGone);
        if (plan.sla().isEmpty() || account.currentPeriod().isEmpty()) {
            Responses.ok(
                    res, new SlaJson.NoSla(plan.sla().map(PlanJson.SlaJson::of).orElse(null)));
            return;
        }
        SlaTerms sla = plan.sla().get();
        Period period = account.currentPeriod().get();
        long allowance = reports.meter().periodAllowance(account.id(), period, plan.allowance());
        SlaReports.SoFar soFar = reports.soFar(sla, period, allowance, clock.instant());
        Responses.ok(
                res,
                new SlaJson.CallerSla(
                        PlanJson.SlaJson.of(sla),
                        new PlanJson.PeriodBody(Times.format(period.start()), Times.format(period.end())),
                        soFar.uptime().lowest(),
                        SlaJson.ServiceBody.of(soFar.uptime()),
                        soFar.creditPercentIfEndedNow(),
                        reports.credits(account.id()).stream()
                                .map(SlaJson.CreditBody::of)
                                .toList()));
    }

    /** The plan's accounts that would be credited if their periods ended now, with the amounts and total. */
    private void preview(ServerRequest req, ServerResponse res) {
        String planId = Requests.query(req, "planId")
                .filter(id -> JsonBody.SLUG.matcher(id).matches())
                .orElseThrow(() -> new ProblemException(
                        ProblemCode.INVALID_REQUEST, "Query parameter 'planId' must be a plan id."));
        Plan plan = plans.find(planId)
                .orElseThrow(() -> new ProblemException(ProblemCode.PLAN_NOT_FOUND, "No plan has this id."));
        Instant now = clock.instant();
        List<SlaJson.PreviewAccount> credited = plan.sla()
                .map(sla -> reports.preview(planId, sla, now).stream()
                        .map(SlaJson.PreviewAccount::of)
                        .filter(a -> a.amount() > 0)
                        .toList())
                .orElse(List.of());
        Responses.ok(
                res,
                new SlaJson.Preview(
                        planId,
                        plan.sla().map(PlanJson.SlaJson::of).orElse(null),
                        credited,
                        credited.stream()
                                .mapToLong(SlaJson.PreviewAccount::amount)
                                .sum()));
    }

    /** Takes back what is left of a credit grant, once: 409 the second time, 404 for a grant not the account's. */
    private void revoke(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        RevokeResult result = Queued.call(() -> ledger.revokeGrant(accountId, Requests.pathParam(req, "grantId")));
        switch (result) {
            case RevokeResult.Revoked revoked ->
                Responses.ok(
                        res,
                        new SlaJson.Revoked(
                                revoked.grantId(), revoked.amount(), revoked.balance(), Times.format(revoked.at())));
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private static IllegalStateException accountGone() {
        return new IllegalStateException("The caller's account or plan is missing");
    }
}
