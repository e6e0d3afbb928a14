package dev.pulseledger.operators;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Optional;

/** {@code GET /admin/audit?operatorId=&from=&to=}: who changed what, newest first, cursor-paged. */
public final class AuditRoutes {
    static final String PATH = "/admin/audit";
    private static final int MAX_ID_LENGTH = 100;

    private final AuditLog audit;

    public AuditRoutes(AuditLog audit) {
        this.audit = audit;
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::list);
    }

    private void list(ServerRequest req, ServerResponse res) {
        Responses.ok(res, PageBody.of(audit.read(query(req)), OperatorJson::audit));
    }

    /** The query a request asks for; 400 naming the parameter when one is malformed. */
    public static AuditLog.Query query(ServerRequest req) {
        Optional<String> operatorId = Requests.query(req, "operatorId").filter(id -> !id.isEmpty());
        if (operatorId.isPresent() && operatorId.get().length() > MAX_ID_LENGTH) {
            throw new ProblemException(ProblemCode.INVALID_OPERATOR_ID, "Query parameter 'operatorId' is too long.");
        }
        Instant from = Requests.timestamp(req, "from", ProblemCode.INVALID_FROM).orElse(Instant.EPOCH);
        Instant to = Requests.timestamp(req, "to", ProblemCode.INVALID_TO).orElse(Instant.ofEpochMilli(Long.MAX_VALUE));
        return new AuditLog.Query(
                operatorId,
                from,
                to,
                Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE),
                Requests.pageSize(req));
    }
}
