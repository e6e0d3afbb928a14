package dev.pulseledger.docs;

import dev.pulseledger.http.ClasspathResources;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/**
 * Interactive API reference at {@code /docs}: Swagger UI from its webjar, served by this node (no
 * CDN), reading this node's {@code /openapi.json}. Only a fixed list of files is served. {@code /}
 * sends a browser to the status page when it is on, else here.
 */
public final class DocsRoutes {
    public static final String PATH = "/docs";

    /** Scripts and styles only from this node; Swagger UI fetches the document and tries calls here too. */
    static final String CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none';"
            + " frame-ancestors 'none'";

    /** The assets change only with a new build, so browsers may keep them a day and then revalidate. */
    private static final String ASSET_CACHE_CONTROL = "public, max-age=86400";

    private final Representation page;
    private final Map<String, Representation> assets;
    private final String landingPath;

    /** {@code landingPath} is where {@code /} redirects: {@code /status} or {@code /docs}. */
    public DocsRoutes(String landingPath) {
        this.landingPath = landingPath;
        String webjar = "/META-INF/resources/webjars/swagger-ui/"
                + ClasspathResources.webjarVersion("org.webjars", "swagger-ui") + "/";
        this.page =
                Representation.of("text/html; charset=utf-8", ClasspathResources.read("/docs/index.html"), "no-cache");
        this.assets = Map.of(
                "swagger-ui-bundle.js", asset("text/javascript; charset=utf-8", webjar + "swagger-ui-bundle.js"),
                "swagger-ui.css", asset("text/css; charset=utf-8", webjar + "swagger-ui.css"),
                "favicon-32x32.png", asset("image/png", webjar + "favicon-32x32.png"),
                "docs.js", asset("text/javascript; charset=utf-8", "/docs/docs.js"));
    }

    public void register(RouteTable routes) {
        routes.get("/", this::land).get(PATH, this::page).get("/docs/{asset}", this::asset);
    }

    private void land(ServerRequest req, ServerResponse res) {
        res.status(302).header(HeaderNames.LOCATION, landingPath).send();
    }

    private void page(ServerRequest req, ServerResponse res) {
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        page.send(req, res);
    }

    private void asset(ServerRequest req, ServerResponse res) {
        Representation asset = Optional.ofNullable(assets.get(Requests.pathParam(req, "asset")))
                .orElseThrow(() -> new ProblemException(ProblemCode.NOT_FOUND, "No resource lives at this path."));
        PageHeaders.apply(res, CONTENT_SECURITY_POLICY);
        asset.send(req, res);
    }

    private static Representation asset(String contentType, String path) {
        return Representation.of(contentType, ClasspathResources.read(path), ASSET_CACHE_CONTROL);
    }
}
