package dev.pulseledger.health;

import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.openapi.OpenApiDocument;
import dev.pulseledger.store.Database;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Liveness, readiness, Prometheus metrics and the OpenAPI document: no caller key needed. */
public final class HealthRoutes {
    private final Database database;
    private final PrometheusMeterRegistry registry;
    private final byte[] openApi;

    public HealthRoutes(Database database, PrometheusMeterRegistry registry) {
        this.database = database;
        this.registry = registry;
        this.openApi = OpenApiDocument.load();
    }

    public void register(RouteTable routes) {
        routes.get("/health/live", this::live)
                .get("/health/ready", this::ready)
                .get("/metrics", this::metrics)
                .get("/openapi.json", this::openApi);
    }

    private void live(ServerRequest req, ServerResponse res) {
        Responses.ok(res, Map.of("status", "up"));
    }

    /** Ready when the database answers and this node can write to it (not full, not read-only). */
    private void ready(ServerRequest req, ServerResponse res) {
        boolean reachable = database.isReachable();
        boolean writable = reachable && database.canWrite();
        Responses.json(
                res,
                writable ? 200 : 503,
                Map.of(
                        "status", writable ? "up" : "down",
                        "database", reachable ? "up" : "down",
                        "writes", writable ? "up" : "down"));
    }

    private void metrics(ServerRequest req, ServerResponse res) {
        Responses.send(
                res,
                200,
                "text/plain; version=0.0.4; charset=utf-8",
                registry.scrape().getBytes(StandardCharsets.UTF_8));
    }

    private void openApi(ServerRequest req, ServerResponse res) {
        Responses.send(res, 200, Responses.JSON, openApi);
    }
}
