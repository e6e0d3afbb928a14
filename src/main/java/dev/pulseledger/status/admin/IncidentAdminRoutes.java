package dev.pulseledger.status.admin;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.IncidentWrite;
import dev.pulseledger.status.incidents.StatusJson;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/** Operator API for incidents and their updates ({@code /admin/incidents}, CONTRACT §9). */
public final class IncidentAdminRoutes {
    public static final int MAX_TITLE_LENGTH = 200;
    public static final int MAX_MESSAGE_LENGTH = 5000;
    private static final int MAX_SERVICES = 100;
    private static final int MAX_ID_LENGTH = 64;
    private static final Set<String> CREATE_FIELDS = Set.of("title", "impact", "status", "message", "services");
    private static final Set<String> UPDATE_FIELDS = Set.of("status", "message", "services");
    private static final Set<String> EDIT_FIELDS = Set.of("title", "impact");

    private final IncidentStore incidents;
    private final PulseFeed feed;
    private final Clock clock;

    public IncidentAdminRoutes(IncidentStore incidents, PulseFeed feed, Clock clock) {
        this.incidents = incidents;
        this.feed = feed;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/incidents", this::create)
                .get("/admin/incidents", this::list)
                .get("/admin/incidents/{incidentId}", this::get)
                .patch("/admin/incidents/{incidentId}", this::edit)
                .delete("/admin/incidents/{incidentId}", this::delete)
                .post("/admin/incidents/{incidentId}/updates", this::addUpdate)
                .post("/admin/incidents/{incidentId}/publish", this::publish);
    }

    /** An incident as operators see it: with whether it is a draft that callers do not see yet. */
    private record OperatorIncident(@JsonUnwrapped StatusJson.IncidentBody incident, boolean draft) {}

    private OperatorIncident operator(Incident incident, Set<String> drafts) {
        return new OperatorIncident(StatusJson.incident(incident), drafts.contains(incident.id()));
    }

    private void publish(ServerRequest req, ServerResponse res) {
        String id = incidentId(req);
        switch (incidents.publish(id, clock.instant())) {
            case NOT_FOUND -> throw notFound();
            case NOT_A_DRAFT ->
                throw new ProblemException(ProblemCode.INCIDENT_NOT_DRAFT, "This incident is published already.");
            case PUBLISHED -> {
                feed.invalidate();
                Incident incident = incidents.find(id).orElseThrow(IncidentAdminRoutes::notFound);
                Responses.ok(res, operator(incident, Set.of()));
            }
        }
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String title = body.requiredNonBlank("title", MAX_TITLE_LENGTH);
        IncidentImpact impact = impact(body).orElse(IncidentImpact.NONE);
        IncidentStatus status = status(body).orElse(IncidentStatus.INVESTIGATING);
        IncidentStore.Change first = change(body, status);
        Incident incident = written(incidents.create(title, impact, first));
        feed.invalidate();
        res.header(Responses.LOCATION, "/admin/incidents/" + incident.id());
        Responses.json(res, 201, operator(incident, Set.of()));
    }

    private void addUpdate(ServerRequest req, ServerResponse res) {
        String id = incidentId(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), UPDATE_FIELDS);
        IncidentStatus status = status(body).orElseThrow(() -> ProblemException.invalidField("status", "is required"));
        Incident incident = written(incidents.addUpdate(id, change(body, status)));
        feed.invalidate();
        Responses.json(res, 201, operator(incident, incidents.draftIds()));
    }

    private void list(ServerRequest req, ServerResponse res) {
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Incident> page = incidents.page(before, limit, false);
        Set<String> drafts = incidents.draftIds();
        Responses.ok(res, PageBody.of(page, incident -> operator(incident, drafts)));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Incident incident = incidents.find(incidentId(req)).orElseThrow(IncidentAdminRoutes::notFound);
        Responses.ok(res, operator(incident, incidents.draftIds()));
    }

    private void edit(ServerRequest req, ServerResponse res) {
        String id = incidentId(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), EDIT_FIELDS);
        if (body.has("title")) {
            body.requiredNonBlank("title", MAX_TITLE_LENGTH);
        }
        Incident incident = incidents
                .edit(id, body.optionalString("title", MAX_TITLE_LENGTH), impact(body), clock.instant())
                .orElseThrow(IncidentAdminRoutes::notFound);
        feed.invalidate();
        Responses.ok(res, operator(incident, incidents.draftIds()));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!incidents.delete(incidentId(req))) {
            throw notFound();
        }
        feed.invalidate();
        Responses.noContent(res);
    }

    private IncidentStore.Change change(JsonBody body, IncidentStatus status) {
        String message = body.requiredNonBlank("message", MAX_MESSAGE_LENGTH);
        SortedMap<String, ServiceStatus> services = new TreeMap<>();
        body.optionalStringMap("services", MAX_SERVICES, 40).orElse(Map.of()).forEach((serviceId, wire) -> {
            if (!JsonBody.SLUG.matcher(serviceId).matches()) {
                throw ProblemException.invalidField("services", "keys must be service ids");
            }
            services.put(
                    serviceId,
                    ServiceStatus.fromWire(wire)
                            .orElseThrow(() -> ProblemException.invalidField(
                                    "services", "values must be one of " + ServiceStatus.WIRE_VALUES)));
        });
        return new IncidentStore.Change(status, message, services, clock.instant());
    }

    private static Incident written(IncidentWrite write) {
        return switch (write) {
            case IncidentWrite.Written written -> written.incident();
            case IncidentWrite.NotFound notFound -> throw notFound();
            case IncidentWrite.UnknownServices unknown ->
                throw unknownService(unknown.serviceIds().getFirst());
            case IncidentWrite.TooManyUpdates tooMany ->
                throw new ProblemException(
                        ProblemCode.INCIDENT_UPDATE_LIMIT_REACHED,
                        "An incident may have at most " + IncidentStore.MAX_UPDATES + " updates.");
        };
    }

    static ProblemException unknownService(String serviceId) {
        return new ProblemException(ProblemCode.UNKNOWN_SERVICE, "No service has the id '" + serviceId + "'.");
    }

    private static Optional<IncidentImpact> impact(JsonBody body) {
        return body.optionalString("impact", 20)
                .map(text -> IncidentImpact.fromWire(text)
                        .orElseThrow(() -> ProblemException.invalidField(
                                "impact", "must be one of " + IncidentImpact.WIRE_VALUES)));
    }

    private static Optional<IncidentStatus> status(JsonBody body) {
        return body.optionalString("status", 20)
                .map(text -> IncidentStatus.fromWire(text)
                        .orElseThrow(() -> ProblemException.invalidField(
                                "status", "must be one of " + IncidentStatus.WIRE_VALUES)));
    }

    private static String incidentId(ServerRequest req) {
        String id = Requests.pathParam(req, "incidentId");
        if (id.length() > MAX_ID_LENGTH) {
            throw notFound();
        }
        return id;
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.INCIDENT_NOT_FOUND, "No incident has this id.");
    }
}
