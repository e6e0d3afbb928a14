package dev.pulseledger.statuspage;

import dev.pulseledger.http.ClasspathResources;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.pulse.PulseFeed;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The public HTML status page ({@code /status}) and its stylesheet: no key needed, served from the
 * cached pulse feed, and only registered when the operator turns the page on.
 */
public final class StatusPageRoutes {
    public static final String PATH = "/status";

    /** No script, no frames, no forms: the page needs only its own stylesheet. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'self'; img-src 'self';"
            + " base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /**
     * Public, so a CDN in front can absorb the crowd an outage brings; short, so a change shows
     * within a few seconds (on top of the feed's own one-second bound).
     */
    static final String PAGE_CACHE_CONTROL = "public, max-age=5";

    private static final String STYLESHEET_CACHE_CONTROL = "public, max-age=3600";

    /** The page as last rendered, and the feed snapshot it was rendered from. */
    private record Rendered(String feedEtag, Representation page) {}

    private final PulseFeed feed;
    private final Representation stylesheet;
    private final AtomicReference<Rendered> rendered = new AtomicReference<>();

    public StatusPageRoutes(PulseFeed feed) {
        this.feed = feed;
        this.stylesheet = Representation.of(
                "text/css; charset=utf-8", ClasspathResources.read("/statuspage/status.css"), STYLESHEET_CACHE_CONTROL);
    }

    public void register(RouteTable routes) {
        routes.get(PATH, this::page).get("/status/status.css", this::stylesheet);
    }

    private void page(ServerRequest req, ServerResponse res) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        current().send(req, res);
    }

    private void stylesheet(ServerRequest req, ServerResponse res) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        stylesheet.send(req, res);
    }

    /** Renders once per change of the feed, not once per visitor. */
    private Representation current() {
        PulseFeed.Snapshot snapshot = feed.current();
        Rendered last = rendered.get();
        if (last != null && last.feedEtag().equals(snapshot.etag())) {
            return last.page();
        }
        byte[] html = StatusPageView.render(snapshot.services()).getBytes(StandardCharsets.UTF_8);
        Representation page = Representation.of("text/html; charset=utf-8", html, PAGE_CACHE_CONTROL);
        // Two threads may render the same snapshot at once; either result is right.
        rendered.set(new Rendered(snapshot.etag(), page));
        return page;
    }
}
