package dev.pulseledger.console;

import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.store.Page;
import dev.pulseledger.webhooks.Delivery;
import dev.pulseledger.webhooks.Webhook;
import dev.pulseledger.webhooks.WebhookStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Webhook endpoints, each one's deliveries with every attempt, and a re-send of any delivery. */
final class WebhookPages {
    static final int DELIVERIES_PAGE_SIZE = 20;

    private final WebhookStore webhooks;
    private final ConsoleView view;
    private final Clock clock;

    WebhookPages(WebhookStore webhooks, ConsoleView view, Clock clock) {
        this.webhooks = webhooks;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/webhooks", guard.page(this::list))
                .get("/console/webhooks/{webhookId}", guard.page(this::detail))
                .post("/console/webhooks/{webhookId}/deliveries/{deliveryId}/resend", guard.change(this::resend));
    }

    private void list(ServerRequest req, ServerResponse res, Session session) {
        view.render(res, 200, "webhooks", Optional.of(session), Map.of("webhooks", webhooks.list()));
    }

    private void detail(ServerRequest req, ServerResponse res, Session session) {
        Optional<Webhook> webhook = webhooks.find(Requests.pathParam(req, "webhookId"));
        if (webhook.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        long before =
                Requests.query(req, "before").flatMap(AccountPages::sequence).orElse(Long.MAX_VALUE);
        Page<Delivery> deliveries = webhooks.deliveries(webhook.get().id(), before, DELIVERIES_PAGE_SIZE);
        Map<String, Object> model = new HashMap<>();
        model.put("webhook", webhook.get());
        model.put("deliveries", deliveries.items());
        model.put("next", deliveries.nextPosition().orElse(""));
        model.put("firstPage", before == Long.MAX_VALUE);
        model.put(
                "done",
                Requests.query(req, "done").filter("resent"::equals).isPresent()
                        ? "Queued again: the new delivery is at the top and is attempted within seconds."
                        : "");
        view.render(res, 200, "webhook", Optional.of(session), model);
    }

    private void resend(ServerRequest req, ServerResponse res, Session session, Form form) {
        String webhookId = Requests.pathParam(req, "webhookId");
        if (!webhooks.resend(webhookId, Requests.pathParam(req, "deliveryId"), clock.instant())) {
            view.notFound(res, session);
            return;
        }
        ConsoleGuard.redirect(res, "/console/webhooks/" + webhookId + "?done=resent");
    }
}
