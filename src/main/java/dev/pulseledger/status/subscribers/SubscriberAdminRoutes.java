package dev.pulseledger.status.subscribers;

import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Page;
import dev.pulseledger.webhooks.WebhookStore;
import dev.pulseledger.webhooks.WebhookUrls;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Operator API for status subscribers ({@code /admin/status-subscribers}): webhook subscribers made
 * here, subscribers listed (paged, searched by part of an address or URL, counted per service), exported as CSV,
 * and deleted. Addresses appear in these answers only, never in a log line or a metric.
 */
public final class SubscriberAdminRoutes {
    public static final String PATH = "/admin/status-subscribers";

    private static final Set<String> CREATE_FIELDS = Set.of("url", "services");
    private static final Pattern SUBSCRIBER_ID = Pattern.compile("ssub_[0-9a-z]{26}");

    private final SubscriberDirectory directory;
    private final WebhookUrls urls;
    private final SubscriberStore store;
    private final ServiceStore services;
    private final Clock clock;

    public SubscriberAdminRoutes(
            SubscriberDirectory directory,
            SubscriberStore store,
            ServiceStore services,
            WebhookUrls urls,
            Clock clock) {
        this.directory = directory;
        this.urls = urls;
        this.store = store;
        this.services = services;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post(PATH, this::create)
                .get(PATH, this::list)
                .get(PATH + "/export", this::export)
                .get(PATH + "/{subscriberId}", this::get)
                .delete(PATH + "/{subscriberId}", this::delete);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String url = urls.check(body.requiredString("url", WebhookUrls.MAX_URL_LENGTH + 1));
        Optional<List<String>> chosen = body.optionalStringList("services", ServiceChoice.MAX_SERVICES, 64);
        ServiceChoice choice = ServiceChoice.everything();
        if (chosen.isPresent()) {
            TreeSet<String> ids = new TreeSet<>(chosen.get());
            for (String id : ids) {
                if (!JsonBody.SLUG.matcher(id).matches() || services.find(id).isEmpty()) {
                    throw new ProblemException(
                            ProblemCode.UNKNOWN_SERVICE, "services names a service that does not exist.");
                }
            }
            choice = new ServiceChoice(false, ids);
        }
        String secret = Secrets.newWebhookSecret();
        Subscriber created = directory
                .createWebhook(url, choice, secret, clock.instant())
                .orElseThrow(() -> new ProblemException(
                        ProblemCode.WEBHOOK_LIMIT_REACHED,
                        "At most " + WebhookStore.MAX_WEBHOOKS + " webhooks may exist."));
        res.header(Responses.LOCATION, PATH + "/" + created.id());
        // The only time the secret is shown: the receiver needs it to verify signatures.
        Responses.json(
                res,
                201,
                new SubscriberJson.NewWebhookSubscriber(
                        created.id(),
                        created.kind().wire(),
                        url,
                        created.allServices() ? null : List.copyOf(created.services()),
                        SubscriberJson.status(created),
                        dev.pulseledger.http.Times.format(created.createdAt()),
                        secret));
    }

    private void list(ServerRequest req, ServerResponse res) {
        int limit = Requests.pageSize(req);
        long after = Cursors.sequence(Requests.query(req, "cursor"), 0);
        Optional<String> search = Requests.query(req, "q").filter(q -> !q.isBlank());
        if (search.isPresent() && search.get().length() > SubscriberDirectory.MAX_SEARCH_LENGTH) {
            throw ProblemException.invalidField(
                    "q", "must be at most " + SubscriberDirectory.MAX_SEARCH_LENGTH + " characters");
        }
        Page<Subscriber> page = directory.page(after, limit, search);
        Responses.ok(
                res,
                new SubscriberJson.PageBody(
                        page.items().stream().map(SubscriberJson::subscriber).toList(),
                        page.nextPosition().map(Cursors::encode).orElse(null),
                        SubscriberJson.counts(directory.counts())));
    }

    private void get(ServerRequest req, ServerResponse res) {
        Responses.ok(
                res,
                SubscriberJson.subscriber(store.find(subscriberId(req)).orElseThrow(SubscriberAdminRoutes::notFound)));
    }

    private void delete(ServerRequest req, ServerResponse res) {
        if (!store.delete(subscriberId(req))) {
            throw notFound();
        }
        Responses.noContent(res);
    }

    /** Every subscriber as CSV (RFC 4180), written page by page. */
    private void export(ServerRequest req, ServerResponse res) {
        SubscriberCsv.send(res, directory);
    }

    private static String subscriberId(ServerRequest req) {
        String id = Requests.pathParam(req, "subscriberId");
        if (!SUBSCRIBER_ID.matcher(id).matches()) {
            throw notFound();
        }
        return id;
    }

    private static ProblemException notFound() {
        return new ProblemException(ProblemCode.STATUS_SUBSCRIBER_NOT_FOUND, "No status subscriber has this id.");
    }
}
