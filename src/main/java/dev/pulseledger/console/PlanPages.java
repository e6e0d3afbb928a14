package dev.pulseledger.console;

import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.accounts.SlaTerms;
import dev.pulseledger.admin.PlanAdminRoutes;
import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.read.SlaReports;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Plans: every plan with a form to change it, and a form to create one; a plan's SLA preview (CONTRACT §13):
 * the accounts that would be credited if their periods ended now.
 */
final class PlanPages {
    private static final String NEW_PLAN = "";
    private static final Map<String, String> DONE = Map.of("created", "Plan created.", "updated", "Plan updated.");

    private final PlanStore plans;
    private final SlaReports reports;
    private final ConsoleView view;
    private final Clock clock;

    PlanPages(PlanStore plans, SlaReports reports, ConsoleView view, Clock clock) {
        this.plans = plans;
        this.reports = reports;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/plans", guard.page(this::list))
                .get("/console/plans/{planId}/sla-preview", guard.page(this::slaPreview))
                .post("/console/plans", guard.change(this::create))
                .post("/console/plans/{planId}", guard.change(this::update));
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        show(
                res,
                session,
                200,
                Form.empty(),
                NEW_PLAN,
                Requests.query(req, "done").map(DONE::get).orElse(""));
    }

    /** As {@code GET /admin/sla/preview}: the plan's accounts that would be credited now, with the total. */
    private void slaPreview(ServerRequest req, ServerResponse res, Session session) {
        Optional<Plan> plan = plans.find(Requests.pathParam(req, "planId"));
        if (plan.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        List<SlaReports.Preview> credited = plan.get()
                .sla()
                .map(sla -> reports.preview(plan.get().id(), sla, clock.instant()).stream()
                        .filter(p -> p.soFar().creditIfEndedNow() > 0)
                        .toList())
                .orElse(List.of());
        Map<String, Object> model = new HashMap<>();
        model.put("plan", plan.get());
        model.put("credited", credited);
        model.put(
                "total",
                credited.stream().mapToLong(p -> p.soFar().creditIfEndedNow()).sum());
        view.render(res, 200, "sla-preview", Optional.of(session), model);
    }

    private void create(ServerRequest req, ServerResponse res, Session session, Form form) {
        String id = form.value("id").strip();
        if (!JsonBody.SLUG.matcher(id).matches()) {
            form.error("id", "Use 1 to 63 lowercase letters, digits and dashes, starting with a letter or digit.");
        }
        Instant now = clock.instant();
        Optional<Plan> plan = plan(id, form, now, now).filter(p -> servicesExist(p, form));
        if (plan.isPresent()) {
            if (plans.create(plan.get())) {
                ConsoleGuard.redirect(res, "/console/plans?done=created");
                return;
            }
            form.error("id", "A plan with this id exists already.");
        }
        show(res, session, 422, form, NEW_PLAN, "");
    }

    private void update(ServerRequest req, ServerResponse res, Session session, Form form) {
        Optional<Plan> current = plans.find(Requests.pathParam(req, "planId"));
        if (current.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        // The console's form has no pools: the plan keeps the ones it has.
        Optional<Plan> updated = plan(current.get().id(), form, current.get().createdAt(), clock.instant())
                .map(plan -> plan.withPools(current.get().pools()))
                .filter(p -> servicesExist(p, form));
        if (updated.isPresent() && plans.update(updated.get())) {
            ConsoleGuard.redirect(res, "/console/plans?done=updated");
            return;
        }
        show(res, session, 422, form, current.get().id(), "");
    }

    /** The plan the form describes, with the operator API's limits; empty when a field is wrong. */
    private static Optional<Plan> plan(String id, Form form, Instant createdAt, Instant updatedAt) {
        Optional<String> name = form.text("name", 200, true);
        Optional<String> description = form.text("description", 2000, false);
        Optional<Long> allowance = form.wholeNumber("allowance", 0, Plan.MAX_ALLOWANCE, false);
        String periodText = form.value("period").strip();
        Optional<PlanPeriod> period =
                periodText.isEmpty() ? Optional.of(PlanPeriod.MONTH) : PlanPeriod.fromWire(periodText);
        if (period.isEmpty()) {
            form.error("period", "Choose day, week, month or year.");
        }
        Optional<Long> rollover = form.wholeNumber("rollover", 0, Plan.MAX_ALLOWANCE, false);
        Optional<Long> rateLimit =
                form.wholeNumber("rateLimitPerMinute", 1, PlanAdminRoutes.MAX_RATE_LIMIT_PER_MINUTE, false);
        Optional<SlaTerms> sla = sla(form);
        if (!form.valid()) {
            return Optional.empty();
        }
        return Optional.of(new Plan(
                id,
                name.orElseThrow(),
                description.orElse(""),
                allowance.orElse(0L),
                period.orElseThrow(),
                rollover.orElse(0L),
                rateLimit,
                sla,
                createdAt,
                updatedAt,
                Map.of()));
    }

    /** The form's SLA, typed as {@code api, dashboard | 0.999:10, 0.99:25}; empty when blank or wrong. */
    private static Optional<SlaTerms> sla(Form form) {
        Optional<String> text = form.text("sla", 1000, false);
        try {
            return text.map(SlaTerms::fromText);
        } catch (IllegalArgumentException e) {
            form.error("sla", "Write services, a bar, then tiers: api, dashboard | 0.999:10, 0.99:25.");
            return Optional.empty();
        }
    }

    private boolean servicesExist(Plan plan, Form form) {
        List<String> unknown =
                plan.sla().map(s -> plans.unknownServices(s.services())).orElse(List.of());
        if (!unknown.isEmpty()) {
            form.error("sla", "No service has the id " + unknown.getFirst() + ".");
        }
        return unknown.isEmpty();
    }

    private void show(ServerResponse res, Session session, int status, Form form, String failedPlan, String done) {
        Map<String, Object> model = new HashMap<>();
        model.put("plans", plans.list());
        model.put("failed", status == 200 ? "-" : failedPlan);
        model.put("errors", form.errors());
        model.put("values", form.values());
        model.put("done", done);
        view.render(res, status, "plans", Optional.of(session), model);
    }
}
