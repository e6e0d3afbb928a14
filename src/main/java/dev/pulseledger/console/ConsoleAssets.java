package dev.pulseledger.console;

import dev.pulseledger.http.ClasspathResources;
import dev.pulseledger.http.PageHeaders;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Representation;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Map;
import java.util.Optional;

/** The console's stylesheet and htmx from its webjar: a fixed list of files, served by this node. */
final class ConsoleAssets {
    static final String PATH = "/console/assets/{asset}";
    private static final String CACHE_CONTROL = "public, max-age=86400";

    private final Map<String, Representation> assets;

    ConsoleAssets() {
        this.assets = Map.of(
                "console.css", asset("text/css; charset=utf-8", "/console/console.css"),
                "htmx.min.js",
                        asset(
                                "text/javascript; charset=utf-8",
                                "/META-INF/resources/webjars/htmx.org/"
                                        + ClasspathResources.webjarVersion("org.webjars.npm", "htmx.org")
                                        + "/dist/htmx.min.js"));
    }

    void register(RouteTable routes) {
        routes.get(PATH, this::asset);
    }

    private void asset(ServerRequest req, ServerResponse res) {
        Representation asset = Optional.ofNullable(assets.get(Requests.pathParam(req, "asset")))
                .orElseThrow(() -> new ProblemException(ProblemCode.NOT_FOUND, "No resource lives at this path."));
        PageHeaders.apply(res, ConsoleView.CONTENT_SECURITY_POLICY);
        asset.send(req, res);
    }

    private static Representation asset(String contentType, String path) {
        return Representation.of(contentType, ClasspathResources.read(path), CACHE_CONTROL);
    }
}
