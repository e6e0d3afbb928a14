package dev.pulseledger.status.admin;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.incidents.MaintenanceWrite;
import dev.pulseledger.status.incidents.StatusJson;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/** Operator API for scheduled maintenance ({@code /admin/maintenances}, CONTRACT §9). */
public final class MaintenanceAdminRoutes {
    private static final int MAX_ID_LENGTH = 64;
    private static final Set<String> CREATE_FIELDS = Set.of("title", "message", "services", "startsAt", "endsAt");
    private static final Set<String> EDIT_FIELDS = Set.of("title", "message", "startsAt", "endsAt");

    private final MaintenanceStore maintenances;
    private final PulseFeed feed;
    private final Clock clock;

    public MaintenanceAdminRoutes(MaintenanceStore maintenances, PulseFeed feed, Clock clock) {
        this.maintenances = maintenances;
        this.feed = feed;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/maintenances", this::create)
                .get("/admin/maintenances", this::list)
                .get("/admin/maintenances/{maintenanceId}", this::get)
                .patch("/admin/maintenances/{maintenanceId}", this::edit)
                .delete("/admin/maintenances/{maintenanceId}", this::delete);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String title = body.requiredNonBlank("title", IncidentAdminRoutes.MAX_TITLE_LENGTH);
        String message = body.optionalString("message", IncidentAdminRoutes.MAX_MESSAGE_LENGTH)
                .orElse("");
        SortedSet<String> services = new TreeSet<>();
        for (String serviceId : body.requiredStringList("services", MaintenanceStore.MAX_SERVICES, 63)) {
            if (!JsonBody.SLUG.matcher(serviceId).matches()) {
                throw ProblemException.invalidField("services", "must hold service ids");
            }
            services.add(serviceId);
        }
        Instant startsAt = body.requiredInstant("startsAt");
        Instant endsAt = body.requiredInstant("endsAt");
        Instant now = clock.instant();
        if (!endsAt.isAfter(startsAt)) {
            throw ProblemException.invalidField("endsAt", "must be after startsAt");
        }
        if (!endsAt.isAfter(now)) {
            throw ProblemException.invalidField("endsAt", "must be in the future");
        }
        Maintenance maintenance = written(maintenances.create(title, message, services, startsAt, endsAt, now));
        feed.invalidate();
        res.header(Responses.LOCATION, "/admin/maintenances/" + maintenance.id());
        Responses.json(res, 201, StatusJson.maintenance(maintenance));
    }

    private void list(ServerRequest req, ServerResponse res) {
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Maintenance> page = maintenances.page(before, limit);
        Responses.ok(res, PageBody.of(page, StatusJson::maintenance));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Maintenance maintenance = maintenances.find(maintenanceId(req)).orElseThrow(MaintenanceAdminRoutes::notFound);
        Responses.ok(res, StatusJson.maintenance(maintenance));
    }

    private void edit(ServerRequest req, ServerResponse res) {
        String id = maintenanceId(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), EDIT_FIELDS);
        if (body.has("title")) {
            body.requiredNonBlank("title", IncidentAdminRoutes.MAX_TITLE_LENGTH);
        }
        MaintenanceStore.Edit edit = new MaintenanceStore.Edit(
                body.optionalString("title", IncidentAdminRoutes.MAX_TITLE_LENGTH),
                body.optionalString("message", IncidentAdminRoutes.MAX_MESSAGE_LENGTH),
                body.optionalInstant("startsAt"),
                body.optionalInstant("endsAt"),
                clock.instant());
        Maintenance maintenance = written(maintenances.edit(id, edit));
        feed.invalidate();
        Responses.ok(res, StatusJson.maintenance(maintenance));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!maintenances.delete(maintenanceId(req), clock.instant())) {
            throw notFound();
        }
        feed.invalidate();
        Responses.noContent(res);
    }

    private static Maintenance written(MaintenanceWrite write) {
        return switch (write) {
            case MaintenanceWrite.Written written -> written.maintenance();
            case MaintenanceWrite.NotFound notFound -> throw notFound();
            case MaintenanceWrite.UnknownServices unknown ->
                throw IncidentAdminRoutes.unknownService(unknown.serviceIds().getFirst());
            case MaintenanceWrite.Refused refused -> throw new ProblemException(refused.code(), refused.detail());
        };
    }

    private static String maintenanceId(ServerRequest req) {
        String id = Requests.pathParam(req, "maintenanceId");
        if (id.length() > MAX_ID_LENGTH) {
            throw notFound();
        }
        return id;
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.MAINTENANCE_NOT_FOUND, "No maintenance window has this id.");
    }
}
