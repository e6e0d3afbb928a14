package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.subscribers.Subscriber;
import dev.pulseledger.status.subscribers.SubscriberCsv;
import dev.pulseledger.status.subscribers.SubscriberDirectory;
import dev.pulseledger.status.subscribers.SubscriberStore;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Status subscribers (CONTRACT §15): counts per service, a page of subscribers found by part of their
 * address or URL, a delete for each, and the whole list as CSV. Addresses are shown here, to operators who
 * may read them, and nowhere else.
 */
final class StatusSubscriberPages {
    static final int PAGE_SIZE = 50;

    private final SubscriberDirectory directory;
    private final SubscriberStore store;
    private final ConsoleView view;

    StatusSubscriberPages(SubscriberDirectory directory, SubscriberStore store, ConsoleView view) {
        this.directory = directory;
        this.store = store;
        this.view = view;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/status-subscribers", guard.page(this::list))
                .get("/console/status-subscribers/export", guard.page(this::export))
                .post("/console/status-subscribers/{subscriberId}/delete", guard.change(this::delete));
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        String query = Requests.query(req, "q").map(String::strip).orElse("");
        if (query.length() > SubscriberDirectory.MAX_SEARCH_LENGTH) {
            query = query.substring(0, SubscriberDirectory.MAX_SEARCH_LENGTH);
        }
        Optional<Long> after = Requests.query(req, "after").flatMap(AccountPages::sequence);
        Page<Subscriber> page =
                directory.page(after.orElse(0L), PAGE_SIZE, Optional.of(query).filter(q -> !q.isEmpty()));
        Map<String, Object> model = new HashMap<>();
        model.put("query", query);
        model.put("subscribers", page.items());
        model.put("next", page.nextPosition().orElse(""));
        model.put("firstPage", after.isEmpty());
        model.put("counts", directory.counts());
        model.put(
                "done",
                Requests.query(req, "done").filter("deleted"::equals).isPresent()
                        ? "Subscriber deleted: no more notices go to it."
                        : "");
        view.render(res, 200, "status-subscribers", Optional.of(session), model);
    }

    /** The same CSV as {@code GET /admin/status-subscribers/export}, for the signed-in operator. */
    private void export(ServerRequest req, ServerResponse res, Session session) {
        SubscriberCsv.send(res, directory);
    }

    private void delete(ServerRequest req, ServerResponse res, Session session, Form form) {
        if (!store.delete(Requests.pathParam(req, "subscriberId"))) {
            view.notFound(res, session);
            return;
        }
        ConsoleGuard.redirect(res, "/console/status-subscribers?done=deleted");
    }
}
