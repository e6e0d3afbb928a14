package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.groups.ServiceGroup;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.upstream.UpstreamStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Every service, public or not, in pulse order, with a status control for each. */
final class ServicePages {
    private static final Map<String, String> DONE = Map.of(
            "status", "Status changed.",
            "group", "Group changed.",
            "group-created", "Group created.",
            "group-deleted", "Group deleted.");

    private final ServiceStore services;
    private final ServiceGroupStore groups;
    private final UpstreamStore upstreams;
    private final PulseFeed feed;
    private final ConsoleView view;
    private final Clock clock;

    ServicePages(
            ServiceStore services,
            ServiceGroupStore groups,
            UpstreamStore upstreams,
            PulseFeed feed,
            ConsoleView view,
            Clock clock) {
        this.services = services;
        this.upstreams = upstreams;
        this.groups = groups;
        this.feed = feed;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/services", guard.page(this::list))
                .post("/console/services/{serviceId}/status", guard.change(this::changeStatus))
                .post("/console/services/{serviceId}/group", guard.change(this::changeGroup))
                .post("/console/service-groups", guard.change(this::createGroup))
                .post("/console/service-groups/{groupId}/delete", guard.change(this::deleteGroup));
    }

    private void changeGroup(ServerRequest req, ServerResponse res, Session session, Form form) {
        String serviceId = Requests.pathParam(req, "serviceId");
        String chosen = form.value("groupId");
        Optional<String> groupId = chosen.isEmpty() ? Optional.empty() : Optional.of(chosen);
        if (groupId.isPresent() && groups.find(groupId.get()).isEmpty()) {
            form.error("groupId", "Choose one of the groups listed.");
            show(res, session, 422, form, serviceId, "");
            return;
        }
        Optional<Service> changed = services.update(serviceId, current -> current.withGroup(groupId, clock.instant()));
        if (changed.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/services?done=group");
    }

    private void createGroup(ServerRequest req, ServerResponse res, Session session, Form form) {
        String id = form.value("id");
        String name = form.value("name").strip();
        if (!JsonBody.SLUG.matcher(id).matches()) {
            form.error("id", "Use lower-case letters, digits and hyphens, starting with a letter or digit.");
        }
        if (name.isEmpty() || name.length() > 200) {
            form.error("name", "Give a name of 1 to 200 characters.");
        }
        if (!form.valid()) {
            show(res, session, 422, form, "", "");
            return;
        }
        Instant now = clock.instant();
        if (groups.create(new ServiceGroup(id, name, 0, now, now)) != ServiceGroupStore.Create.CREATED) {
            form.error("id", "A group or a service already has this id, or there are too many groups.");
            show(res, session, 422, form, "", "");
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/services?done=group-created");
    }

    private void deleteGroup(ServerRequest req, ServerResponse res, Session session, Form form) {
        if (!groups.delete(Requests.pathParam(req, "groupId"))) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/services?done=group-deleted");
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        show(
                res,
                session,
                200,
                Form.empty(),
                "",
                Requests.query(req, "done").map(DONE::get).orElse(""));
    }

    private void changeStatus(ServerRequest req, ServerResponse res, Session session, Form form) {
        String serviceId = Requests.pathParam(req, "serviceId");
        Optional<ServiceStatus> status = ServiceStatus.fromWire(form.value("status"));
        if (status.isEmpty()) {
            form.error("status", "Choose one of the statuses listed.");
            show(res, session, 422, form, serviceId, "");
            return;
        }
        Optional<Service> changed =
                services.update(serviceId, current -> current.withStatus(status.get(), clock.instant()));
        if (changed.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        feed.invalidate();
        ConsoleGuard.redirect(res, "/console/services?done=status");
    }

    private void show(ServerResponse res, Session session, int status, Form form, String failedService, String done) {
        Map<String, Object> model = new HashMap<>();
        model.put(
                "services", services.all().stream().sorted(Service.PULSE_ORDER).toList());
        model.put(
                "statuses",
                Arrays.stream(ServiceStatus.values()).map(ServiceStatus::wire).toList());
        model.put("groups", groups.all());
        model.put("upstreams", upstreams.all());
        model.put("failed", failedService);
        model.put("errors", form.errors());
        model.put("values", form.values());
        model.put("done", done);
        view.render(res, status, "services", Optional.of(session), model);
    }
}
