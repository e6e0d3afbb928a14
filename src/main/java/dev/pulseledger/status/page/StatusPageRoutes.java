package dev.pulseledger.status.page;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.pulseledger.http.ClasspathResources;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.status.history.UptimeCalculator;
import dev.pulseledger.status.history.UptimeReport;
import dev.pulseledger.status.incidents.Incident;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * The public HTML status page ({@code /status}), its incident history, stylesheet and refresh
 * script: no key needed, rendered from the cached pulse feed, and only registered when the operator
 * turns the page on.
 */
public final class StatusPageRoutes {
    public static final String PATH = "/status";

    /** Own files only: the stylesheet, the refresh script, and the script's fetch of the page itself. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    /**
     * Public, so a CDN in front can absorb the crowd an outage brings; short, so a change shows
     * within a few seconds (on top of the feed's own one-second bound).
     */
    static final String PAGE_CACHE_CONTROL = "public, max-age=5";

    private static final String ASSET_CACHE_CONTROL = "public, max-age=3600";
    private static final String HTML = "text/html; charset=utf-8";

    /** History pages kept rendered at once; a bound, since the cursor comes from strangers. */
    private static final int MAX_HISTORY_PAGES_CACHED = 64;

    /** The page as last rendered, for one feed snapshot and one minute (today's uptime moves with time). */
    private record Rendered(String feedEtag, Instant minute, Representation page) {}

    private final PulseFeed feed;
    private final IncidentStore incidents;
    private final StatusHistory history;
    private final Clock clock;
    private final Branding branding;
    private final Messages words;
    private final PageSection extra;
    private final Representation stylesheet;
    private final Representation script;
    private final AtomicReference<Rendered> rendered = new AtomicReference<>();
    private final LoadingCache<String, Representation> historyPages;

    public StatusPageRoutes(
            PulseFeed feed,
            IncidentStore incidents,
            StatusHistory history,
            Clock clock,
            Branding branding,
            Messages words,
            PageSection extra) {
        this.words = words;
        this.extra = extra;
        this.feed = feed;
        this.incidents = incidents;
        this.history = history;
        this.clock = clock;
        this.branding = branding;
        this.stylesheet = Representation.of(
                "text/css; charset=utf-8", ClasspathResources.read("/statuspage/status.css"), ASSET_CACHE_CONTROL);
        this.script = Representation.of(
                "text/javascript; charset=utf-8",
                ClasspathResources.read("/statuspage/status.js"),
                ASSET_CACHE_CONTROL);
        this.historyPages = Caffeine.newBuilder()
                .maximumSize(MAX_HISTORY_PAGES_CACHED)
                .expireAfterWrite(Duration.ofSeconds(5))
                .build(this::renderHistory);
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::page)
                .get("/status/history", this::history)
                .get("/status/status.css", (req, res) -> asset(res, req, stylesheet))
                .get("/status/status.js", (req, res) -> asset(res, req, script));
    }

    private void page(ServerRequest req, ServerResponse res) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        current().send(req, res);
    }

    private void history(ServerRequest req, ServerResponse res) {
        // Decoded first, so a bad cursor is a 400 and never takes a place in the cache.
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        historyPages.get(Long.toString(before)).send(req, res);
    }

    private static void asset(ServerResponse res, ServerRequest req, Representation asset) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        asset.send(req, res);
    }

    /** Renders once per change of the feed and per minute, not once per visitor. */
    private Representation current() {
        PulseFeed.Snapshot snapshot = feed.current();
        Instant now = clock.instant();
        Instant minute = now.truncatedTo(ChronoUnit.MINUTES);
        Rendered last = rendered.get();
        if (last != null
                && last.feedEtag().equals(snapshot.representation().etag())
                && last.minute().equals(minute)) {
            return last.page();
        }
        Map<String, UptimeReport> uptime = new LinkedHashMap<>();
        for (Service service : snapshot.services()) {
            history.uptime(service.id(), UptimeCalculator.MAX_DAYS, now)
                    .ifPresent(report -> uptime.put(service.id(), report));
        }
        StatusPageView.Content content = new StatusPageView.Content(
                snapshot.services(),
                snapshot.groups(),
                snapshot.activeIncidents(),
                snapshot.scheduledMaintenances(),
                uptime);
        Representation page = Representation.of(
                HTML,
                StatusPageView.render(content, branding, words, extra).getBytes(StandardCharsets.UTF_8),
                PAGE_CACHE_CONTROL);
        // Two threads may render the same snapshot at once; either result is right.
        rendered.set(new Rendered(snapshot.representation().etag(), minute, page));
        return page;
    }

    private Representation renderHistory(String beforeSeq) {
        PulseFeed.Snapshot snapshot = feed.current();
        Set<String> shown = snapshot.services().stream().map(Service::id).collect(Collectors.toSet());
        Page<Incident> page = incidents.page(Long.parseLong(beforeSeq), HistoryPageView.PAGE_SIZE, true);
        Page<Incident> visible =
                new Page<>(page.items().stream().map(i -> i.restrictedTo(shown)).toList(), page.nextPosition());
        byte[] html = HistoryPageView.render(visible, snapshot.services(), branding, words)
                .getBytes(StandardCharsets.UTF_8);
        return Representation.of(HTML, html, PAGE_CACHE_CONTROL);
    }
}
