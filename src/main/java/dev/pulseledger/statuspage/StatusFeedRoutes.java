package dev.pulseledger.statuspage;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.pulse.PulseFeed;
import dev.pulseledger.pulse.Service;
import dev.pulseledger.status.Incident;
import dev.pulseledger.status.IncidentStore;
import dev.pulseledger.status.Maintenance;
import dev.pulseledger.status.MaintenanceStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Feeds of the status page for other tools: Atom for feed readers, and a read-only copy of
 * Statuspage's public v2 JSON API for aggregators and widgets. Public, like the page, and only
 * registered with it.
 */
public final class StatusFeedRoutes {
    /** Incidents and maintenance windows the Statuspage documents list at most, newest first. */
    static final int MAX_LISTED = 50;

    private static final String CACHE_CONTROL = "public, max-age=5";
    private static final String JSON = "application/json";

    /** What every document is built from: one read of the feed, recent incidents and windows. */
    private record Source(
            List<Service> services,
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
    private final Map<String, Function<Source, Representation>> documents = new LinkedHashMap<>();
    private final LoadingCache<String, Representation> rendered;

    public StatusFeedRoutes(
            PulseFeed feed, IncidentStore incidents, MaintenanceStore maintenances, Clock clock, Branding branding) {
        this.feed = feed;
        this.incidents = incidents;
        this.maintenances = maintenances;
        this.clock = clock;
        this.branding = branding;
        documents.put("/status/feed.atom", this::atom);
        documents.put("/status/api/v2/summary.json", s -> json(summary(s)));
        documents.put("/status/api/v2/status.json", s -> json(withPage(s, "status", status(s))));
        documents.put("/status/api/v2/components.json", s -> json(withPage(s, "components", components(s))));
        documents.put("/status/api/v2/incidents.json", s -> json(withPage(s, "incidents", incidents(s.recent(), s))));
        documents.put(
                "/status/api/v2/scheduled-maintenances.json",
                s -> json(withPage(s, "scheduled_maintenances", maintenances(s.windows(), s))));
        // One entry per document; rebuilt at most every 5 s whatever the traffic.
        this.rendered = Caffeine.newBuilder()
                .maximumSize(documents.size())
                .expireAfterWrite(Duration.ofSeconds(5))
                .build(path -> documents.get(path).apply(source()));
    }

    public void register(RouteTable routes) {
        documents.keySet().forEach(path -> routes.get(path, (req, res) -> send(path, req, res)));
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
                snapshot.services().stream().collect(Collectors.toMap(Service::id, s -> s)),
                snapshot.activeIncidents(),
                snapshot.scheduledMaintenances(),
                recent,
                windows,
                clock.instant());
    }

    private Map<String, Object> summary(Source source) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("page", page(source));
        body.put("components", components(source));
        body.put("incidents", incidents(source.active(), source));
        body.put("scheduled_maintenances", maintenances(source.upcoming(), source));
        body.put("status", status(source));
        return body;
    }

    private Map<String, Object> withPage(Source source, String field, Object value) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("page", page(source));
        body.put(field, value);
        return body;
    }

    private Map<String, Object> page(Source source) {
        return StatuspageJson.page(
                branding, StatuspageJson.updatedAt(source.services(), source.recent(), source.now()));
    }

    private static List<Map<String, Object>> components(Source source) {
        return source.services().stream().map(StatuspageJson::component).toList();
    }

    private static Map<String, Object> status(Source source) {
        return StatuspageJson.status(source.services(), source.active());
    }

    private static List<Map<String, Object>> incidents(List<Incident> listed, Source source) {
        return listed.stream()
                .map(i -> StatuspageJson.incident(i, source.byId()))
                .toList();
    }

    private static List<Map<String, Object>> maintenances(List<Maintenance> listed, Source source) {
        return listed.stream()
                .map(m -> StatuspageJson.maintenance(m, source.byId()))
                .toList();
    }

    private Representation atom(Source source) {
        Map<String, String> names = IncidentHtml.names(source.services());
        byte[] xml =
                AtomFeed.render(source.recent(), names, branding, source.now()).getBytes(StandardCharsets.UTF_8);
        return Representation.of("application/atom+xml; charset=utf-8", xml, CACHE_CONTROL);
    }

    private static Representation json(Map<String, Object> body) {
        return Representation.of(JSON, Json.bytes(body), CACHE_CONTROL);
    }
}
