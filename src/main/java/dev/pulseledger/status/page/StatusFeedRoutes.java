package dev.pulseledger.status.page;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.groups.GroupRollup;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.Maintenance;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Feeds of the status page for other tools: Atom for feed readers, and a read-only copy of
 * Statuspage's public v2 JSON API for aggregators and widgets. Public, like the page, and only
 * registered with it.
 */
public final class StatusFeedRoutes {
    /** Incidents and maintenance windows the Statuspage documents list at most, newest first. */
    static final int MAX_LISTED = 50;

    /** One service's Atom feed is cached under this path and its id; at most this many at once. */
    private static final String SERVICE_FEED = "/status/feed.atom?service=";

    private static final int MAX_CACHED_SERVICE_FEEDS = 256;
    private static final String CACHE_CONTROL = "public, max-age=5";
    private static final String JSON = "application/json";

    /** What every document is built from: one read of the feed, recent incidents and windows. */
    private record Source(
            List<Service> services,
            List<GroupRollup> groups,
            Map<String, Service> byId,
            List<Incident> active,
            List<Maintenance> upcoming,
            List<Incident> recent,
            List<Maintenance> windows,
            Instant now) {}

    private final PulseFeed feed;
    private final IncidentStore incidents;
    private final MaintenanceStore maintenances;
    private final Clock clock;
    private final Branding branding;
    private final Messages words;
    private final Map<String, Function<Source, Representation>> documents = new LinkedHashMap<>();
    private final LoadingCache<String, Representation> rendered;

    public StatusFeedRoutes(
            PulseFeed feed,
            IncidentStore incidents,
            MaintenanceStore maintenances,
            Clock clock,
            Branding branding,
            Messages words) {
        this.words = words;
        this.feed = feed;
        this.incidents = incidents;
        this.maintenances = maintenances;
        this.clock = clock;
        this.branding = branding;
        documents.put("/status/feed.atom", s -> atom(s, Optional.empty()));
        documents.put("/status/api/v2/summary.json", s -> json(summary(s)));
        documents.put("/status/api/v2/status.json", s -> json(new StatusDocument(page(s), status(s))));
        documents.put("/status/api/v2/components.json", s -> json(new ComponentsDocument(page(s), components(s))));
        documents.put(
                "/status/api/v2/incidents.json", s -> json(new IncidentsDocument(page(s), incidents(s.recent(), s))));
        documents.put(
                "/status/api/v2/scheduled-maintenances.json",
                s -> json(new MaintenancesDocument(page(s), maintenances(s.windows(), s))));
        // One entry per document; rebuilt at most every 5 s whatever the traffic.
        this.rendered = Caffeine.newBuilder()
                .maximumSize(documents.size() + MAX_CACHED_SERVICE_FEEDS)
                .expireAfterWrite(Duration.ofSeconds(5))
                // Only registered paths and known services are looked up, so each has its document.
                .build(path -> path.startsWith(SERVICE_FEED)
                        ? serviceAtom(source(), path.substring(SERVICE_FEED.length()))
                        : Objects.requireNonNull(documents.get(path), path).apply(source()));
    }

    public void register(RouteTable routes) {
        documents.keySet().forEach(path -> routes.get(path, (req, res) -> send(feedOf(path, req), req, res)));
    }

    /** The document's cache key: the path, or one public service's feed; an unknown service is a 404. */
    private String feedOf(String path, ServerRequest req) {
        if (!path.equals("/status/feed.atom")) {
            return path;
        }
        Optional<String> service = Requests.query(req, "service");
        if (service.isEmpty()) {
            return path;
        }
        boolean shown = feed.current().services().stream().anyMatch(s -> s.id().equals(service.get()));
        if (!shown) {
            throw new ProblemException(ProblemCode.SERVICE_NOT_FOUND, "No public service has this id.");
        }
        return SERVICE_FEED + service.get();
    }

    private void send(String path, ServerRequest req, ServerResponse res) {
        PageHeaders.apply(res, StatusPageRoutes.CONTENT_SECURITY_POLICY);
        // Widgets on other sites read these documents from the browser, as they do Statuspage's.
        res.header("Access-Control-Allow-Origin", "*");
        rendered.get(path).send(req, res);
    }

    private Source source() {
        PulseFeed.Snapshot snapshot = feed.current();
        Set<String> shown = snapshot.services().stream().map(Service::id).collect(Collectors.toSet());
        List<Incident> recent = incidents.page(Long.MAX_VALUE, MAX_LISTED, true).items().stream()
                .map(i -> i.restrictedTo(shown))
                .toList();
        List<Maintenance> windows = maintenances.page(Long.MAX_VALUE, MAX_LISTED).items().stream()
                .filter(m -> m.isVisibleWith(shown))
                .map(m -> m.restrictedTo(shown))
                .toList();
        return new Source(
                snapshot.services(),
                snapshot.groups(),
                snapshot.services().stream().collect(Collectors.toMap(Service::id, s -> s)),
                snapshot.activeIncidents(),
                snapshot.scheduledMaintenances(),
                recent,
                windows,
                clock.instant());
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    private record Summary(
            StatuspageJson.PageBody page,
            List<StatuspageJson.ComponentBody> components,
            List<StatuspageJson.IncidentBody> incidents,
            List<StatuspageJson.IncidentBody> scheduledMaintenances,
            StatuspageJson.StatusBody status) {}

    private record StatusDocument(StatuspageJson.PageBody page, StatuspageJson.StatusBody status) {}

    private record ComponentsDocument(StatuspageJson.PageBody page, List<StatuspageJson.ComponentBody> components) {}

    private record IncidentsDocument(StatuspageJson.PageBody page, List<StatuspageJson.IncidentBody> incidents) {}

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    private record MaintenancesDocument(
            StatuspageJson.PageBody page, List<StatuspageJson.IncidentBody> scheduledMaintenances) {}

    private Summary summary(Source source) {
        return new Summary(
                page(source),
                components(source),
                incidents(source.active(), source),
                maintenances(source.upcoming(), source),
                status(source));
    }

    private StatuspageJson.PageBody page(Source source) {
        return StatuspageJson.page(
                branding, words, StatuspageJson.updatedAt(source.services(), source.recent(), source.now()));
    }

    private static List<StatuspageJson.ComponentBody> components(Source source) {
        return Stream.concat(
                        source.services().stream().map(StatuspageJson::component),
                        source.groups().stream().map(StatuspageJson::group))
                .toList();
    }

    private static StatuspageJson.StatusBody status(Source source) {
        return StatuspageJson.status(source.services(), source.active());
    }

    private static List<StatuspageJson.IncidentBody> incidents(List<Incident> listed, Source source) {
        return listed.stream()
                .map(i -> StatuspageJson.incident(i, source.byId()))
                .toList();
    }

    private static List<StatuspageJson.IncidentBody> maintenances(List<Maintenance> listed, Source source) {
        return listed.stream()
                .map(m -> StatuspageJson.maintenance(m, source.byId()))
                .toList();
    }

    private Representation serviceAtom(Source source, String serviceId) {
        // The service may have left the page since the request was checked; its feed is then empty.
        String name = Optional.ofNullable(source.byId().get(serviceId))
                .map(Service::name)
                .orElse(serviceId);
        return atom(source, Optional.of(new AtomFeed.ServiceScope(serviceId, name)));
    }

    private Representation atom(Source source, Optional<AtomFeed.ServiceScope> service) {
        Map<String, String> names = IncidentHtml.names(source.services());
        List<Incident> listed = service.map(s -> source.recent().stream()
                        .filter(i -> i.services().contains(s.id()))
                        .toList())
                .orElse(source.recent());
        byte[] xml = AtomFeed.render(listed, names, branding, source.now(), words, service)
                .getBytes(StandardCharsets.UTF_8);
        return Representation.of("application/atom+xml; charset=utf-8", xml, CACHE_CONTROL);
    }

    private static Representation json(Object body) {
        return Representation.of(JSON, Json.bytes(body), CACHE_CONTROL);
    }
}
