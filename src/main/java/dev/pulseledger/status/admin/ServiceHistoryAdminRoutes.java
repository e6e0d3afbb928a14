package dev.pulseledger.status.admin;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.history.StatusChange;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.status.incidents.StatusJson;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/** {@code GET /admin/services/{serviceId}/history}: every status change of a service, who or what made it. */
public final class ServiceHistoryAdminRoutes {
    private final StatusHistory history;
    private final ServiceStore services;

    public ServiceHistoryAdminRoutes(StatusHistory history, ServiceStore services) {
        this.history = history;
        this.services = services;
    }

    public void register(RouteTable routes) {
        routes.get("/admin/services/{serviceId}/history", this::history);
    }

    private void history(ServerRequest req, ServerResponse res) {
        String serviceId = Requests.pathParam(req, "serviceId");
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        if (services.find(serviceId).isEmpty()) {
            throw new ProblemException(ProblemCode.SERVICE_NOT_FOUND, "No service has this id.");
        }
        Page<StatusChange> page = history.changes(serviceId, before, limit);
        Responses.ok(res, PageBody.of(page, StatusJson::change));
    }
}
