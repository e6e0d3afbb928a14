package dev.pulseledger.status.subscribers;

import dev.pulseledger.config.MailAddresses;
import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The public side of subscriptions (CONTRACT §15): {@code POST /status/subscriptions} (a form from the
 * status page, or JSON), and the pages behind the links in mails: confirm, manage (change services or
 * leave) and unsubscribe, whose POST is RFC 8058's one-click. Registered only when mail is configured.
 * Every answer to a subscribe request is the same whether or not the address is known.
 */
public final class SubscribeRoutes {
    /** Pages that submit forms to this origin only; no script. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self';"
            + " base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    private static final String HTML = "text/html; charset=utf-8";
    private static final Set<String> JSON_FIELDS = Set.of("email", "services");
    private static final int MAX_TOKEN_LENGTH = 100;

    /** The 202's body: it says the same for every address. */
    record Accepted(String status, String detail) {}

    private final SubscriberStore store;
    private final PulseFeed feed;
    private final ClientAddresses clients;
    private final Clock clock;
    private final SubscriberPages pages;

    /** {@code words} and {@code title}: the status page's language and its title in it. */
    public SubscribeRoutes(
            SubscriberStore store, PulseFeed feed, ClientAddresses clients, Clock clock, Messages words, String title) {
        this.store = store;
        this.feed = feed;
        this.clients = clients;
        this.clock = clock;
        this.pages = new SubscriberPages(words, title);
    }

    public void register(RouteTable routes) {
        routes.post(SubscriberPages.SUBSCRIBE_PATH, this::subscribe)
                .get(SubscriberPages.SUBSCRIBE_PATH + "/confirm", this::confirmPage)
                .post(SubscriberPages.SUBSCRIBE_PATH + "/confirm", this::confirm)
                .get(SubscriberPages.SUBSCRIBE_PATH + "/manage", this::managePage)
                .post(SubscriberPages.SUBSCRIBE_PATH + "/manage", this::manage)
                .get(SubscriberPages.SUBSCRIBE_PATH + "/unsubscribe", this::unsubscribePage)
                .post(SubscriberPages.SUBSCRIBE_PATH + "/unsubscribe", this::unsubscribe);
    }

    /** The section the status page shows above its footer. */
    public String formSection(List<Service> services) {
        return pages.form(services, Optional.empty());
    }

    private void subscribe(ServerRequest req, ServerResponse res) {
        boolean form = isForm(req);
        Instant now = clock.instant();
        Optional<Instant> retryAt = store.countRequest(clients.of(req), now);
        if (retryAt.isPresent()) {
            tooMany(
                    res,
                    form,
                    retryAt.get(),
                    now,
                    "sub.later.client",
                    "Too many subscribe requests from your address.");
            return;
        }
        Request request;
        try {
            request = form
                    ? fromForm(FormFields.read(req))
                    : fromJson(JsonBody.parse(Requests.jsonBody(req), JSON_FIELDS));
        } catch (ProblemException e) {
            if (!form || e.status() != 400) {
                throw e;
            }
            html(res, 400, pages.refused("sub.refused.heading", e.detail(), services()));
            return;
        }
        switch (store.subscribe(request.email(), request.choice(), now)) {
            case SubscriberStore.Outcome.TooMany tooMany ->
                tooMany(
                        res,
                        form,
                        tooMany.retryAt(),
                        now,
                        "sub.later.address",
                        "This address was sent enough mails for today.");
            case SubscriberStore.Outcome.Queued queued -> {
                if (form) {
                    html(res, 202, pages.accepted());
                } else {
                    Responses.json(
                            res,
                            202,
                            new Accepted(
                                    "accepted",
                                    "If the address can receive mail, a confirmation link is on its way; nothing else is"
                                            + " sent before it is followed."));
                }
            }
        }
    }

    private record Request(String email, ServiceChoice choice) {}

    private Request fromJson(JsonBody body) {
        String email = address(body.requiredString("email", MailAddresses.MAX_LENGTH + 1));
        Optional<List<String>> services = body.optionalStringList(
                "services", ServiceChoice.MAX_SERVICES, JsonBody.SLUG.pattern().length() + 64);
        return new Request(email, choice(services));
    }

    private Request fromForm(FormFields form) {
        String email = address(form.value("email").strip());
        List<String> services = form.all("services");
        if (services.size() > ServiceChoice.MAX_SERVICES) {
            throw ProblemException.invalidField("services", "may name at most " + ServiceChoice.MAX_SERVICES);
        }
        return new Request(email, choice(services.isEmpty() ? Optional.empty() : Optional.of(services)));
    }

    /** The address, normalised; a clear 400 that never repeats it. */
    private static String address(String text) {
        return MailAddresses.normalized(text)
                .orElseThrow(() -> ProblemException.invalidField(
                        "email",
                        "must be an email address such as name@example.com, at most " + MailAddresses.MAX_LENGTH
                                + " characters, without spaces or line breaks"));
    }

    /** Services the page lists (public ones); null or no choice means all of them. */
    private ServiceChoice choice(Optional<List<String>> services) {
        if (services.isEmpty()) {
            return ServiceChoice.everything();
        }
        Set<String> known = services().stream().map(Service::id).collect(Collectors.toSet());
        TreeSet<String> chosen = new TreeSet<>(services.get());
        if (!known.containsAll(chosen)) {
            throw ProblemException.invalidField("services", "may only name services shown on the status page");
        }
        return new ServiceChoice(false, chosen);
    }

    /** 429: the form again, with {@code pageKey}'s words, or the problem with {@code why} for JSON. */
    private void tooMany(ServerResponse res, boolean form, Instant retryAt, Instant now, String pageKey, String why) {
        long seconds = Math.max(1, Duration.between(now, retryAt).toSeconds());
        if (form) {
            res.header(HeaderNames.RETRY_AFTER, Long.toString(seconds));
            html(res, 429, pages.refused("sub.later.heading", pages.text(pageKey), services()));
            return;
        }
        throw new ProblemException(ProblemCode.RATE_LIMITED, why + " Try again later.")
                .withHeader("Retry-After", Long.toString(seconds));
    }

    private void confirmPage(ServerRequest req, ServerResponse res) {
        Optional<String> token = token(req, Optional.empty());
        Optional<String> hash = SubscriberTokens.hashOf(token);
        if (hash.isEmpty() || !store.confirmable(hash.get(), clock.instant())) {
            html(res, 404, pages.invalidLink());
            return;
        }
        html(res, 200, pages.confirmQuestion(token.get()));
    }

    private void confirm(ServerRequest req, ServerResponse res) {
        FormFields form = FormFields.read(req);
        Optional<String> token = token(req, Optional.of(form));
        Optional<String> hash = SubscriberTokens.hashOf(token);
        Instant now = clock.instant();
        if (hash.isPresent()
                && store.confirm(hash.get(), now) instanceof SubscriberStore.Confirmation.Confirmed confirmed) {
            Optional<Subscriber> subscriber =
                    store.byToken(SubscriberTokens.hash(confirmed.manageToken()), TokenPurpose.MANAGE, now);
            if (subscriber.isPresent()) {
                html(
                        res,
                        200,
                        pages.manage(
                                "sub.confirmed.heading",
                                Optional.of(pages.text("sub.confirmed.note")),
                                confirmed.manageToken(),
                                subscriber.get(),
                                services()));
                return;
            }
        }
        html(res, 404, pages.invalidLink());
    }

    private void managePage(ServerRequest req, ServerResponse res) {
        Optional<String> token = token(req, Optional.empty());
        Optional<Subscriber> subscriber = subscriber(token, TokenPurpose.MANAGE);
        if (subscriber.isEmpty()) {
            html(res, 404, pages.invalidLink());
            return;
        }
        html(
                res,
                200,
                pages.manage(
                        "sub.manage.heading", Optional.empty(), token.orElseThrow(), subscriber.get(), services()));
    }

    private void manage(ServerRequest req, ServerResponse res) {
        FormFields form = FormFields.read(req);
        Optional<String> token = token(req, Optional.of(form));
        Optional<Subscriber> subscriber = subscriber(token, TokenPurpose.MANAGE);
        if (subscriber.isEmpty()) {
            html(res, 404, pages.invalidLink());
            return;
        }
        if ("leave".equals(form.value("action"))) {
            store.delete(subscriber.get().id());
            html(res, 200, pages.left());
            return;
        }
        List<String> services = form.all("services");
        ServiceChoice choice;
        try {
            if (services.size() > ServiceChoice.MAX_SERVICES) {
                throw ProblemException.invalidField("services", "may name at most " + ServiceChoice.MAX_SERVICES);
            }
            choice = choice(services.isEmpty() ? Optional.empty() : Optional.of(services));
        } catch (ProblemException e) {
            html(
                    res,
                    400,
                    pages.manage(
                            "sub.manage.heading",
                            Optional.of(e.detail()),
                            token.orElseThrow(),
                            subscriber.get(),
                            services()));
            return;
        }
        store.changeServices(subscriber.get().id(), choice);
        Subscriber saved = store.find(subscriber.get().id()).orElse(subscriber.get());
        html(
                res,
                200,
                pages.manage(
                        "sub.manage.heading",
                        Optional.of(pages.text("sub.manage.saved")),
                        token.orElseThrow(),
                        saved,
                        services()));
    }

    private void unsubscribePage(ServerRequest req, ServerResponse res) {
        Optional<String> token = token(req, Optional.empty());
        if (subscriber(token, TokenPurpose.UNSUBSCRIBE).isEmpty()) {
            html(res, 404, pages.invalidLink());
            return;
        }
        html(res, 200, pages.unsubscribeQuestion(token.orElseThrow()));
    }

    /** RFC 8058's one-click POST (body {@code List-Unsubscribe=One-Click}) and the page's button alike. */
    private void unsubscribe(ServerRequest req, ServerResponse res) {
        // A mail client may post multipart/form-data; the token is in the query then, and the body is not needed.
        Optional<FormFields> form = isForm(req) ? Optional.of(FormFields.read(req)) : Optional.empty();
        Optional<Subscriber> subscriber = subscriber(token(req, form), TokenPurpose.UNSUBSCRIBE);
        if (subscriber.isEmpty()) {
            html(res, 404, pages.invalidLink());
            return;
        }
        store.delete(subscriber.get().id());
        html(res, 200, pages.left());
    }

    private Optional<Subscriber> subscriber(Optional<String> token, TokenPurpose purpose) {
        return SubscriberTokens.hashOf(token).flatMap(hash -> store.byToken(hash, purpose, clock.instant()));
    }

    /** The token of the link: in the query (as mails link it), else in the posted form. */
    private static Optional<String> token(ServerRequest req, Optional<FormFields> form) {
        Optional<String> query = Requests.query(req, "token");
        Optional<String> token =
                query.isPresent() ? query : form.map(f -> f.value("token")).filter(t -> !t.isEmpty());
        return token.filter(t -> t.length() <= MAX_TOKEN_LENGTH);
    }

    private List<Service> services() {
        return feed.current().services();
    }

    private static boolean isForm(ServerRequest req) {
        return req.headers()
                .first(HeaderNames.CONTENT_TYPE)
                .map(type -> type.split(";", 2)[0].trim().equalsIgnoreCase("application/x-www-form-urlencoded"))
                .orElse(false);
    }

    private static void html(ServerResponse res, int status, String page) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        res.header("Cache-Control", "no-store");
        Responses.send(res, status, HTML, page.getBytes(StandardCharsets.UTF_8));
    }
}
