package dev.pulseledger.console;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.operators.AuditEntry;
import dev.pulseledger.operators.AuditLog;
import dev.pulseledger.operators.AuditRoutes;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** The audit log in the console: who changed what, newest first, by operator and time, a page at a time. */
final class AuditPages {
    private final AuditLog audit;
    private final ConsoleView view;

    AuditPages(AuditLog audit, ConsoleView view) {
        this.audit = audit;
        this.view = view;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/audit", guard.page(this::list));
    }

    private void list(ServerRequest req, ServerResponse res, ConsoleSessions.Session session) {
        AuditLog.Query query = AuditRoutes.query(req);
        Page<AuditEntry> page = audit.read(query);
        Map<String, Object> model = new HashMap<>();
        model.put("entries", page.items());
        model.put("operatorId", query.operatorId().orElse(""));
        model.put("next", page.nextPosition().map(Cursors::encode).orElse(""));
        view.render(res, 200, "audit", Optional.of(session), model);
    }
}
