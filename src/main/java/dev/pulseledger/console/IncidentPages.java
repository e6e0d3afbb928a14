package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.admin.IncidentAdminRoutes;
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.IncidentWrite;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Incidents: the recent ones with their timelines, a form to post one, and on each open incident a
 * form to add an update; either may set one service's status in the same transaction.
 */
final class IncidentPages {
    private static final int SHOWN = 20;
    private static final String NEW_INCIDENT = "";
    private static final Map<String, String> DONE = Map.of(
            "posted", "Incident posted.",
            "updated", "Update posted.",
            "published", "Draft published: callers see it now.",
            "discarded", "Draft discarded.");

    private final IncidentStore incidents;
    private final ServiceStore services;
    private final PulseFeed feed;
    private final ConsoleView view;
    private final Clock clock;

    IncidentPages(IncidentStore incidents, ServiceStore services, PulseFeed feed, ConsoleView view, Clock clock) {
        this.incidents = incidents;
        this.services = services;
        this.feed = feed;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/incidents", guard.page(this::list))
                .post("/console/incidents", guard.change(this::post))
                .post("/console/incidents/{incidentId}/updates", guard.change(this::update))
                .post("/console/incidents/{incidentId}/publish", guard.change(this::publish))
                .post("/console/incidents/{incidentId}/discard", guard.change(this::discard));
    }

    /** Publishes a draft (a missed heartbeat's, say): callers see it from now on. */
    private void publish(ServerRequest req, ServerResponse res, Session session, Form form) {
        if (incidents.publish(Requests.pathParam(req, "incidentId"), clock.instant())
                != IncidentStore.Publish.PUBLISHED) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/incidents?done=published");
    }

    /** Discards a draft; a published incident is not discarded here. */
    private void discard(ServerRequest req, ServerResponse res, Session session, Form form) {
        String id = Requests.pathParam(req, "incidentId");
        if (!incidents.draftIds().contains(id) || !incidents.delete(id)) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/incidents?done=discarded");
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        show(
                res,
                session,
                200,
                Form.empty(),
                "-",
                Requests.query(req, "done").map(DONE::get).orElse(""));
    }

    private void post(ServerRequest req, ServerResponse res, Session session, Form form) {
        Optional<String> title = form.text("title", IncidentAdminRoutes.MAX_TITLE_LENGTH, true);
        Optional<IncidentImpact> impact = IncidentImpact.fromWire(form.value("impact"));
        if (impact.isEmpty()) {
            form.error("impact", "Choose one of the impacts listed.");
        }
        Optional<IncidentStore.Change> change = change(form);
        if (form.valid()
                && written(form, incidents.create(title.orElseThrow(), impact.orElseThrow(), change.orElseThrow()))) {
            feed.invalidate();
            ConsoleGuard.redirect(res, "/console/incidents?done=posted");
            return;
        }
        show(res, session, 422, form, NEW_INCIDENT, "");
    }

    private void update(ServerRequest req, ServerResponse res, Session session, Form form) {
        String incidentId = Requests.pathParam(req, "incidentId");
        Optional<IncidentStore.Change> change = change(form);
        if (change.isPresent()) {
            IncidentWrite write = incidents.addUpdate(incidentId, change.get());
            if (write instanceof IncidentWrite.NotFound) {
                view.notFound(res, session);
                return;
            }
            if (written(form, write)) {
                feed.invalidate();
                ConsoleGuard.redirect(res, "/console/incidents?done=updated");
                return;
            }
        }
        show(res, session, 422, form, incidentId, "");
    }

    /** The status, message and optional service status the form gives; empty when a field is wrong. */
    private Optional<IncidentStore.Change> change(Form form) {
        Optional<IncidentStatus> status = IncidentStatus.fromWire(form.value("status"));
        if (status.isEmpty()) {
            form.error("status", "Choose one of the statuses listed.");
        }
        Optional<String> message = form.text("message", IncidentAdminRoutes.MAX_MESSAGE_LENGTH, true);
        SortedMap<String, ServiceStatus> serviceStatuses = new TreeMap<>();
        String serviceId = form.value("serviceId");
        if (!serviceId.isEmpty()) {
            Optional<ServiceStatus> serviceStatus = ServiceStatus.fromWire(form.value("serviceStatus"));
            if (serviceStatus.isEmpty()) {
                form.error("serviceStatus", "Choose the status the service is in now.");
            } else {
                serviceStatuses.put(serviceId, serviceStatus.get());
            }
        }
        if (!form.valid()) {
            return Optional.empty();
        }
        return Optional.of(new IncidentStore.Change(
                status.orElseThrow(), message.orElseThrow(), serviceStatuses, clock.instant()));
    }

    /** True when written; otherwise the store's refusal becomes an error on the field it concerns. */
    private static boolean written(Form form, IncidentWrite write) {
        switch (write) {
            case IncidentWrite.Written ok -> {
                return true;
            }
            case IncidentWrite.UnknownServices unknown -> form.error("serviceId", "Choose one of the services listed.");
            case IncidentWrite.TooManyUpdates tooMany ->
                form.error("message", "This incident has " + IncidentStore.MAX_UPDATES + " updates, the most allowed.");
            case IncidentWrite.NotFound notFound -> form.error("message", "This incident no longer exists.");
        }
        return false;
    }

    private void show(ServerResponse res, Session session, int status, Form form, String failed, String done) {
        Map<String, Object> model = new HashMap<>();
        model.put("incidents", incidents.page(Long.MAX_VALUE, SHOWN, false).items());
        model.put("drafts", incidents.draftIds());
        model.put("serviceIds", services.all().stream().map(Service::id).toList());
        model.put(
                "impacts",
                Arrays.stream(IncidentImpact.values()).map(IncidentImpact::wire).toList());
        model.put(
                "statuses",
                Arrays.stream(IncidentStatus.values()).map(IncidentStatus::wire).toList());
        model.put(
                "serviceStatuses",
                Arrays.stream(ServiceStatus.values()).map(ServiceStatus::wire).toList());
        model.put("failed", failed);
        model.put("errors", form.errors());
        model.put("values", form.values());
        model.put("done", done);
        view.render(res, status, "incidents", Optional.of(session), model);
    }
}
