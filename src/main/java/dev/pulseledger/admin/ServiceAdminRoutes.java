package dev.pulseledger.admin;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceJson;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.upstream.Upstream;
import dev.pulseledger.status.upstream.UpstreamField;
import dev.pulseledger.status.upstream.UpstreamGuard;
import dev.pulseledger.status.upstream.UpstreamJson;
import dev.pulseledger.status.upstream.UpstreamStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Operator API for the provider's services and their statuses. */
public final class ServiceAdminRoutes {
    private static final Set<String> FIELDS =
            Set.of("name", "description", "status", "spotlighted", "position", "public", "groupId", "upstream");
    private static final int MAX_POSITION = 1_000_000;

    private final ServiceStore services;
    private final ServiceGroupStore groups;
    private final UpstreamStore upstreams;
    private final UpstreamGuard guard;
    private final PulseFeed feed;
    private final Clock clock;

    /** A service as operators see it, with the upstream it follows and whether that can be read. */
    private record OperatorService(
            @JsonUnwrapped ServiceJson.OperatorBody service,
            @JsonInclude(JsonInclude.Include.NON_NULL) UpstreamJson.@Nullable Body upstream) {}

    public ServiceAdminRoutes(
            ServiceStore services,
            ServiceGroupStore groups,
            UpstreamStore upstreams,
            UpstreamGuard guard,
            PulseFeed feed,
            Clock clock) {
        this.services = services;
        this.groups = groups;
        this.upstreams = upstreams;
        this.guard = guard;
        this.feed = feed;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.get("/admin/services", this::list)
                .get("/admin/services/{serviceId}", this::get)
                .put("/admin/services/{serviceId}", this::put)
                .patch("/admin/services/{serviceId}", this::patch)
                .delete("/admin/services/{serviceId}", this::delete);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Map<String, Upstream> followed = upstreams.all();
        Responses.ok(
                res,
                new DataList<>(services.all().stream()
                        .sorted(Service.PULSE_ORDER)
                        .map(s -> body(s, Optional.ofNullable(followed.get(s.id()))))
                        .toList()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Service service = services.find(serviceId(req)).orElseThrow(ServiceAdminRoutes::notFound);
        Responses.ok(res, body(service, upstreams.find(service.id())));
    }

    private static OperatorService body(Service service, Optional<Upstream> upstream) {
        return new OperatorService(
                ServiceJson.forOperator(service), upstream.map(UpstreamJson::of).orElse(null));
    }

    /** Applies the write's upstream field after the service itself is written. */
    private void follow(String serviceId, UpstreamField.Change change) {
        switch (change) {
            case UpstreamField.Change.Keep keep -> {}
            case UpstreamField.Change.Remove remove -> upstreams.remove(serviceId);
            case UpstreamField.Change.Follow follow ->
                upstreams.put(serviceId, follow.url(), follow.component(), clock.instant());
        }
    }

    private void put(ServerRequest req, ServerResponse res) {
        String id = serviceId(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), FIELDS);
        UpstreamField.Change upstream = UpstreamField.read(body, guard);
        Service service = new Service(
                id,
                body.requiredNonBlank("name", 200),
                body.optionalString("description", 2000).orElse(""),
                status(body).orElse(ServiceStatus.OPERATIONAL),
                body.optionalBoolean("spotlighted").orElse(false),
                position(body).orElse(0),
                body.optionalBoolean("public").orElse(true),
                clock.instant(),
                groupId(body));
        ServiceStore.Write write = services.put(service);
        if (write == ServiceStore.Write.LIMIT_REACHED) {
            throw new ProblemException(
                    ProblemCode.SERVICE_LIMIT_REACHED, "At most " + ServiceStore.MAX_SERVICES + " services may exist.");
        }
        follow(id, upstream);
        feed.invalidate();
        Responses.json(res, write == ServiceStore.Write.CREATED ? 201 : 200, body(service, upstreams.find(id)));
    }

    private void patch(ServerRequest req, ServerResponse res) {
        String id = serviceId(req);
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), FIELDS);
        if (body.has("name")) {
            body.requiredNonBlank("name", 200);
        }
        Optional<ServiceStatus> status = status(body);
        Optional<Integer> position = position(body);
        Optional<String> groupId = groupId(body);
        UpstreamField.Change upstream = UpstreamField.read(body, guard);
        Service changed = services.update(
                        id,
                        current -> new Service(
                                id,
                                body.optionalString("name", 200).orElse(current.name()),
                                body.optionalString("description", 2000).orElse(current.description()),
                                status.orElse(current.status()),
                                body.optionalBoolean("spotlighted").orElse(current.spotlighted()),
                                position.orElse(current.position()),
                                body.optionalBoolean("public").orElse(current.isPublic()),
                                clock.instant(),
                                body.has("groupId") ? groupId : current.groupId()))
                .orElseThrow(ServiceAdminRoutes::notFound);
        follow(id, upstream);
        feed.invalidate();
        Responses.ok(res, body(changed, upstreams.find(id)));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!services.delete(serviceId(req))) {
            throw notFound();
        }
        feed.invalidate();
        Responses.noContent(res);
    }

    private static String serviceId(ServerRequest req) {
        String id = Requests.pathParam(req, "serviceId");
        if (!JsonBody.SLUG.matcher(id).matches()) {
            throw new ProblemException(
                    ProblemCode.INVALID_SERVICE_ID, "A service id must match [a-z0-9][a-z0-9-]{0,62}.");
        }
        return id;
    }

    private static Optional<ServiceStatus> status(JsonBody body) {
        return body.optionalString("status", 40)
                .map(text -> ServiceStatus.fromWire(text)
                        .orElseThrow(() -> ProblemException.invalidField(
                                "status",
                                "must be one of operational, degraded_performance,"
                                        + " partial_outage, major_outage, under_maintenance, unknown")));
    }

    /** The group named by {@code groupId}, which must exist; empty for none (absent or null). */
    private Optional<String> groupId(JsonBody body) {
        Optional<String> id = body.optionalString("groupId", 63);
        id.ifPresent(text -> {
            if (!JsonBody.SLUG.matcher(text).matches() || groups.find(text).isEmpty()) {
                throw new ProblemException(ProblemCode.SERVICE_GROUP_NOT_FOUND, 422, "No service group has this id.");
            }
        });
        return id;
    }

    private static Optional<Integer> position(JsonBody body) {
        return body.optionalLong("position", -MAX_POSITION, MAX_POSITION).map(Math::toIntExact);
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.SERVICE_NOT_FOUND, "No service has this id.");
    }
}
