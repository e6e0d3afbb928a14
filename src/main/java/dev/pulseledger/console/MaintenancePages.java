package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.admin.IncidentAdminRoutes;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.incidents.MaintenanceStatus;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.incidents.MaintenanceWrite;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Scheduled maintenance: every window, newest first and paged, a form to schedule one over chosen
 * services, and on each window not yet over a form to change its text or times and a button to
 * cancel it. The scheduler, not this page, moves the services at the window's start and end.
 */
final class MaintenancePages {
    static final String PATH = "/console/maintenance";
    private static final int PAGE_SIZE = 20;
    private static final String NEW_WINDOW = "";
    private static final Map<String, String> DONE = Map.of(
            "scheduled", "Maintenance scheduled.",
            "updated", "Maintenance window updated.",
            "cancelled", "Maintenance window cancelled.");

    private final MaintenanceStore maintenances;
    private final ServiceStore services;
    private final PulseFeed feed;
    private final ConsoleView view;
    private final Clock clock;

    MaintenancePages(
            MaintenanceStore maintenances, ServiceStore services, PulseFeed feed, ConsoleView view, Clock clock) {
        this.maintenances = maintenances;
        this.services = services;
        this.feed = feed;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get(PATH, guard.page(this::list))
                .post(PATH, guard.change(this::schedule))
                .post(PATH + "/{maintenanceId}", guard.change(this::edit))
                .post(PATH + "/{maintenanceId}/cancel", guard.change(this::cancel));
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        long before =
                Requests.query(req, "before").flatMap(AccountPages::sequence).orElse(Long.MAX_VALUE);
        show(
                res,
                session,
                200,
                before,
                Form.empty(),
                "-",
                Requests.query(req, "done").map(DONE::get).orElse(""));
    }

    private void schedule(ServerRequest req, ServerResponse res, Session session, Form form) {
        Optional<String> title = form.text("title", IncidentAdminRoutes.MAX_TITLE_LENGTH, true);
        Optional<String> message = form.text("message", IncidentAdminRoutes.MAX_MESSAGE_LENGTH, false);
        SortedSet<String> serviceIds = new TreeSet<>(form.all("services"));
        if (serviceIds.isEmpty() || serviceIds.size() > MaintenanceStore.MAX_SERVICES) {
            form.error("services", "Choose from 1 to " + MaintenanceStore.MAX_SERVICES + " services.");
        }
        Optional<Instant> startsAt = form.utcTime("startsAt", true);
        Optional<Instant> endsAt = form.utcTime("endsAt", true);
        Instant now = clock.instant();
        if (startsAt.isPresent() && endsAt.isPresent()) {
            if (!endsAt.get().isAfter(startsAt.get())) {
                form.error("endsAt", "Choose an end after the start.");
            } else if (!endsAt.get().isAfter(now)) {
                form.error("endsAt", "Choose an end in the future.");
            }
        }
        if (form.valid()
                && written(
                        form,
                        maintenances.create(
                                title.orElseThrow(),
                                message.orElse(""),
                                serviceIds,
                                startsAt.orElseThrow(),
                                endsAt.orElseThrow(),
                                now))) {
            feed.invalidate();
            ConsoleGuard.redirect(res, PATH + "?done=scheduled");
            return;
        }
        show(res, session, 422, Long.MAX_VALUE, form, NEW_WINDOW, "");
    }

    /** Changes text and times; a time is sent to the store only when it differs, so a started window keeps its start. */
    private void edit(ServerRequest req, ServerResponse res, Session session, Form form) {
        Optional<Maintenance> current = maintenances.find(maintenanceId(req));
        if (current.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        Maintenance window = current.get();
        Optional<String> title = form.text("title", IncidentAdminRoutes.MAX_TITLE_LENGTH, true);
        Optional<String> message = form.text("message", IncidentAdminRoutes.MAX_MESSAGE_LENGTH, false);
        Optional<Instant> startsAt = window.status() == MaintenanceStatus.SCHEDULED
                ? form.utcTime("startsAt", true)
                : Optional.of(window.startsAt());
        Optional<Instant> endsAt = form.utcTime("endsAt", true);
        if (form.valid()) {
            MaintenanceStore.Edit edit = new MaintenanceStore.Edit(
                    title,
                    Optional.of(message.orElse("")),
                    startsAt.filter(time -> !time.equals(window.startsAt())),
                    endsAt.filter(time -> !time.equals(window.endsAt())),
                    clock.instant());
            if (written(form, maintenances.edit(window.id(), edit))) {
                feed.invalidate();
                ConsoleGuard.redirect(res, PATH + "?done=updated");
                return;
            }
        }
        show(res, session, 422, Long.MAX_VALUE, form, window.id(), "");
    }

    /** Removes the window; one in progress puts its services back first, as the operator API's DELETE does. */
    private void cancel(ServerRequest req, ServerResponse res, Session session, Form form) {
        if (!maintenances.delete(maintenanceId(req), clock.instant())) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, PATH + "?done=cancelled");
    }

    /** True when written; otherwise the store's refusal becomes an error on the field it concerns. */
    private static boolean written(Form form, MaintenanceWrite write) {
        switch (write) {
            case MaintenanceWrite.Written ok -> {
                return true;
            }
            case MaintenanceWrite.UnknownServices unknown ->
                form.error("services", "Choose services from the list: " + unknown.serviceIds() + " no longer exist.");
            case MaintenanceWrite.NotFound notFound -> form.error("title", "This window no longer exists.");
            case MaintenanceWrite.Refused refused ->
                form.error(refused.code() == ProblemCode.MAINTENANCE_STARTED ? "startsAt" : "endsAt", refused.detail());
        }
        return false;
    }

    private static String maintenanceId(ServerRequest req) {
        String id = Requests.pathParam(req, "maintenanceId");
        return id.length() > 64 ? "" : id;
    }

    private void show(
            ServerResponse res, Session session, int status, long before, Form form, String failed, String done) {
        Page<Maintenance> page = maintenances.page(before, PAGE_SIZE);
        List<String> checked = failed.equals(NEW_WINDOW) ? form.all("services") : List.of();
        Map<String, Object> model = new HashMap<>();
        model.put("windows", page.items());
        model.put("next", page.nextPosition().orElse(""));
        model.put("firstPage", before == Long.MAX_VALUE);
        model.put("serviceIds", services.all().stream().map(Service::id).toList());
        model.put("checked", checked);
        model.put("failed", failed);
        model.put("errors", form.errors());
        model.put("values", form.values());
        model.put("done", done);
        view.render(res, status, "maintenance", Optional.of(session), model);
    }
}
