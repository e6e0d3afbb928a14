package dev.pulseledger.webhooks;

import dev.pulseledger.events.EventType;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.regex.Pattern;

/** Operator API for webhook endpoints and their delivery log ({@code /admin/webhooks}). */
public final class WebhookAdminRoutes {
    private static final Set<String> CREATE_FIELDS = Set.of("url", "events", "description");
    private static final Pattern WEBHOOK_ID = Pattern.compile("wh_[0-9a-z]{26}");
    private static final int MAX_EVENT_NAME_LENGTH = 64;
    private static final String EVENT_NAMES = String.join(
            ", ", Arrays.stream(EventType.values()).map(EventType::wire).toList());

    private final WebhookStore webhooks;
    private final WebhookUrls urls;
    private final Clock clock;

    public WebhookAdminRoutes(WebhookStore webhooks, WebhookUrls urls, Clock clock) {
        this.webhooks = webhooks;
        this.urls = urls;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/webhooks", this::create)
                .get("/admin/webhooks", this::list)
                .get("/admin/webhooks/{webhookId}", this::get)
                .delete("/admin/webhooks/{webhookId}", this::delete)
                .get("/admin/webhooks/{webhookId}/deliveries", this::deliveries);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String url = urls.check(body.requiredString("url", WebhookUrls.MAX_URL_LENGTH + 1));
        Set<EventType> events = EnumSet.noneOf(EventType.class);
        for (String name : body.requiredStringList("events", EventType.values().length, MAX_EVENT_NAME_LENGTH)) {
            events.add(EventType.fromWire(name)
                    .orElseThrow(() -> ProblemException.invalidField("events", "may only hold " + EVENT_NAMES)));
        }
        String description = body.optionalString("description", 500).orElse("");
        Webhook webhook = new Webhook(Ids.webhook(), url, description, events, clock.instant());
        String secret = Secrets.newWebhookSecret();
        if (webhooks.create(webhook, secret) == WebhookStore.Creation.LIMIT_REACHED) {
            throw new ProblemException(
                    ProblemCode.WEBHOOK_LIMIT_REACHED, "At most " + WebhookStore.MAX_WEBHOOKS + " webhooks may exist.");
        }
        res.header(Responses.LOCATION, "/admin/webhooks/" + webhook.id());
        // The only time the secret is shown: the receiver needs it to verify signatures.
        Responses.json(res, 201, new WebhookJson.NewWebhookBody(WebhookJson.webhook(webhook), secret));
    }

    private void list(ServerRequest req, ServerResponse res) {
        Responses.ok(
                res,
                new DataList<>(
                        webhooks.list().stream().map(WebhookJson::webhook).toList()));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Responses.ok(res, WebhookJson.webhook(existing(req)));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!webhooks.delete(webhookId(req))) {
            throw notFound();
        }
        Responses.noContent(res);
    }

    private void deliveries(ServerRequest req, ServerResponse res) {
        Webhook webhook = existing(req);
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Delivery> page = webhooks.deliveries(webhook.id(), before, limit);
        Responses.ok(res, PageBody.of(page, WebhookJson::delivery));
    }

    private Webhook existing(ServerRequest req) {
        return webhooks.find(webhookId(req)).orElseThrow(WebhookAdminRoutes::notFound);
    }

    /** The path's webhook id; one that cannot exist is simply not found. */
    private static String webhookId(ServerRequest req) {
        String id = Requests.pathParam(req, "webhookId");
        if (!WEBHOOK_ID.matcher(id).matches()) {
            throw notFound();
        }
        return id;
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.WEBHOOK_NOT_FOUND, "No webhook has this id.");
    }
}
