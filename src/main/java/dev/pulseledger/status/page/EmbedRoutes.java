package dev.pulseledger.status.page;

import dev.pulseledger.config.CorsOrigins;
import dev.pulseledger.http.ClasspathResources;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.pulse.PulseFeed;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The status for other sites (CONTRACT §16): {@code /status/embed}, a small page for an iframe that
 * only the configured origins may frame, and {@code /status/embed.js}, a script that shows the same
 * in a corner of the page that loads it. Neither sets a cookie, and the script sends none.
 */
public final class EmbedRoutes {
    public static final String PAGE = "/status/embed";
    public static final String SCRIPT = "/status/embed.js";

    private static final String CACHE_CONTROL = "public, max-age=5";
    private static final String SCRIPT_CACHE_CONTROL = "public, max-age=300";

    /** The embed page as last rendered, for one feed snapshot. */
    private record Rendered(String feedEtag, Representation page) {}

    private final PulseFeed feed;
    private final Branding branding;
    private final Messages words;
    private final String contentSecurityPolicy;
    private final Representation script;
    private final AtomicReference<Rendered> rendered = new AtomicReference<>();

    public EmbedRoutes(PulseFeed feed, Branding branding, Messages words, CorsOrigins framingOrigins) {
        this.feed = feed;
        this.branding = branding;
        this.words = words;
        this.contentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none';"
                + " form-action 'none'; frame-ancestors " + frameAncestors(framingOrigins);
        this.script = Representation.of("text/javascript; charset=utf-8", script(words), SCRIPT_CACHE_CONTROL);
    }

    /** The CSP source list: the configured origins, or 'none' so that no site may frame the page. */
    static String frameAncestors(CorsOrigins origins) {
        return origins.enabled() ? String.join(" ", origins.origins()) : "'none'";
    }

    public void register(RouteTable routes) {
        routes.get(PAGE, this::page).get(SCRIPT, this::script);
    }

    private void page(ServerRequest req, ServerResponse res) {
        res.header("Content-Security-Policy", contentSecurityPolicy);
        res.header("Referrer-Policy", "no-referrer");
        res.header("X-Content-Type-Options", "nosniff");
        res.header("Cross-Origin-Resource-Policy", "cross-origin");
        current().send(req, res);
    }

    private void script(ServerRequest req, ServerResponse res) {
        res.header("X-Content-Type-Options", "nosniff");
        // Loaded by a script element on other sites: allowed cross-origin, but it carries no secret.
        res.header("Cross-Origin-Resource-Policy", "cross-origin");
        script.send(req, res);
    }

    private Representation current() {
        PulseFeed.Snapshot snapshot = feed.current();
        Rendered last = rendered.get();
        if (last != null && last.feedEtag().equals(snapshot.representation().etag())) {
            return last.page();
        }
        byte[] html = EmbedView.render(snapshot.services(), snapshot.activeIncidents(), branding, words)
                .getBytes(StandardCharsets.UTF_8);
        Representation page = Representation.of("text/html; charset=utf-8", html, CACHE_CONTROL);
        rendered.set(new Rendered(snapshot.representation().etag(), page));
        return page;
    }

    /** The script with this page's words in front of it, as one JSON object it reads. */
    private static byte[] script(Messages words) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (String key : new String[] {
            "embed.title",
            "embed.open",
            "embed.close",
            "section.incidents",
            "headline.operational",
            "headline.degraded_performance",
            "headline.partial_outage",
            "headline.major_outage",
            "headline.under_maintenance"
        }) {
            texts.put(key, words.text(key));
        }
        String code = new String(ClasspathResources.read("/statuspage/embed.js"), StandardCharsets.UTF_8);
        String json = new String(Json.bytes(texts), StandardCharsets.UTF_8)
                .replace("<", "\\u003c"); // never closes a script element, wherever the text is pasted
        return code.replace("/*WORDS*/{}", json).getBytes(StandardCharsets.UTF_8);
    }
}
