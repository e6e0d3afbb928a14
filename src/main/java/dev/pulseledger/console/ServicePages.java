package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.pulse.PulseFeed;
import dev.pulseledger.pulse.Service;
import dev.pulseledger.pulse.ServiceStatus;
import dev.pulseledger.pulse.ServiceStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Every service, public or not, in pulse order, with a status control for each. */
final class ServicePages {
    private static final Map<String, String> DONE = Map.of("status", "Status changed.");

    private final ServiceStore services;
    private final PulseFeed feed;
    private final ConsoleView view;
    private final Clock clock;

    ServicePages(ServiceStore services, PulseFeed feed, ConsoleView view, Clock clock) {
        this.services = services;
        this.feed = feed;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/services", guard.page(this::list))
                .post("/console/services/{serviceId}/status", guard.change(this::changeStatus));
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
        Optional<Service> changed = services.update(
                serviceId,
                current -> new Service(
                        current.id(),
                        current.name(),
                        current.description(),
                        status.get(),
                        current.spotlighted(),
                        current.position(),
                        current.isPublic(),
                        clock.instant()));
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
        model.put("failed", failedService);
        model.put("errors", form.errors());
        model.put("done", done);
        view.render(res, status, "services", Optional.of(session), model);
    }
}
