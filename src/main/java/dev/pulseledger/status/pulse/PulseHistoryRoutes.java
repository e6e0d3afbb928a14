package dev.pulseledger.status.pulse;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.status.history.UptimeCalculator;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.StatusJson;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/** The caller's view of what happened: public incidents with their timelines, and daily uptime (CONTRACT §9). */
public final class PulseHistoryRoutes {
    private final IncidentStore incidents;
    private final StatusHistory history;
    private final PulseFeed feed;
    private final Clock clock;

    public PulseHistoryRoutes(IncidentStore incidents, StatusHistory history, PulseFeed feed, Clock clock) {
        this.incidents = incidents;
        this.history = history;
        this.feed = feed;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.get("/api/pulse/incidents", this::incidents).get("/api/pulse/services/{serviceId}/uptime", this::uptime);
    }

    private void incidents(ServerRequest req, ServerResponse res) {
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Incident> page = incidents.page(before, limit, true);
        // The feed's cached listing says which services are public, as /api/pulse shows them.
        Set<String> shown = feed.current().services().stream().map(Service::id).collect(Collectors.toSet());
        Page<Incident> restricted =
                new Page<>(page.items().stream().map(i -> i.restrictedTo(shown)).toList(), page.nextPosition());
        Responses.ok(res, PageBody.of(restricted, StatusJson::incident));
    }

    private void uptime(ServerRequest req, ServerResponse res) {
        String serviceId = Requests.pathParam(req, "serviceId");
        int days = days(req);
        Optional<Service> service = feed.current().services().stream()
                .filter(s -> s.id().equals(serviceId))
                .findFirst();
        UptimeReport report = service.flatMap(s -> history.uptime(s.id(), days, clock.instant()))
                .orElseThrow(
                        () -> new ProblemException(ProblemCode.SERVICE_NOT_FOUND, "No public service has this id."));
        Responses.ok(res, StatusJson.uptime(serviceId, report));
    }

    /** The {@code days} query parameter: 1 to 90, 90 when absent. */
    private static int days(ServerRequest req) {
        Optional<String> text = Requests.query(req, "days");
        if (text.isEmpty()) {
            return UptimeCalculator.MAX_DAYS;
        }
        try {
            int days = Integer.parseInt(text.get());
            if (days >= 1 && days <= UptimeCalculator.MAX_DAYS) {
                return days;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ProblemException(
                ProblemCode.INVALID_DAYS,
                "Query parameter 'days' must be a whole number from 1 to " + UptimeCalculator.MAX_DAYS + ".");
    }
}
