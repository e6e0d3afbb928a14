package dev.pulseledger.status.admin;

import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.groups.ServiceGroup;
import dev.pulseledger.status.groups.ServiceGroupJson;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.pulse.PulseFeed;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** Operator API for service groups (CONTRACT §16): create, list, rename, reorder, delete. */
public final class ServiceGroupAdminRoutes {
    public static final String PATH = "/admin/service-groups";
    private static final Set<String> CREATE_FIELDS = Set.of("id", "name", "position");
    private static final Set<String> PATCH_FIELDS = Set.of("name", "position");
    private static final int MAX_NAME_LENGTH = 200;
    private static final int MAX_POSITION = 1_000_000;

    private final ServiceGroupStore groups;
    private final PulseFeed feed;
    private final Clock clock;

    public ServiceGroupAdminRoutes(ServiceGroupStore groups, PulseFeed feed, Clock clock) {
        this.groups = groups;
        this.feed = feed;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::list)
                .post(PATH, this::create)
                .get(PATH + "/{groupId}", this::get)
                .patch(PATH + "/{groupId}", this::patch)
                .delete(PATH + "/{groupId}", this::delete);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Responses.ok(
                res,
                new DataList<>(
                        groups.all().stream().map(ServiceGroupJson::forOperator).toList()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Responses.ok(res, ServiceGroupJson.forOperator(find(groupId(req))));
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        Instant now = clock.instant();
        ServiceGroup group = new ServiceGroup(
                body.requiredSlug("id"),
                body.requiredNonBlank("name", MAX_NAME_LENGTH),
                position(body).orElse(0),
                now,
                now);
        switch (groups.create(group)) {
            case ID_TAKEN ->
                throw new ProblemException(
                        ProblemCode.SERVICE_GROUP_EXISTS, "A group or a service already has this id.");
            case LIMIT_REACHED ->
                throw new ProblemException(
                        ProblemCode.SERVICE_GROUP_LIMIT_REACHED,
                        "At most " + ServiceGroupStore.MAX_GROUPS + " groups may exist.");
            case CREATED -> {
                feed.invalidate();
                Responses.json(res, 201, ServiceGroupJson.forOperator(group));
            }
        }
    }

    private void patch(ServerRequest req, ServerResponse res) {
        ServiceGroup current = find(groupId(req));
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), PATCH_FIELDS);
        String name = body.has("name") ? body.requiredNonBlank("name", MAX_NAME_LENGTH) : current.name();
        ServiceGroup changed = new ServiceGroup(
                current.id(), name, position(body).orElse(current.position()), current.createdAt(), clock.instant());
        if (!groups.update(changed)) {
            throw notFound();
        }
        feed.invalidate();
        Responses.ok(res, ServiceGroupJson.forOperator(changed));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!groups.delete(groupId(req))) {
            throw notFound();
        }
        feed.invalidate();
        Responses.noContent(res);
    }

    private ServiceGroup find(String id) {
        return groups.find(id).orElseThrow(ServiceGroupAdminRoutes::notFound);
    }

    private static String groupId(ServerRequest req) {
        String id = Requests.pathParam(req, "groupId");
        if (!JsonBody.SLUG.matcher(id).matches()) {
            throw new ProblemException(ProblemCode.INVALID_GROUP_ID, "A group id must match [a-z0-9][a-z0-9-]{0,62}.");
        }
        return id;
    }

    private static Optional<Integer> position(JsonBody body) {
        return body.optionalLong("position", -MAX_POSITION, MAX_POSITION).map(Math::toIntExact);
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.SERVICE_GROUP_NOT_FOUND, "No service group has this id.");
    }
}
