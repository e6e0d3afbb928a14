package dev.pulseledger.health;

import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.openapi.OpenApiDocument;
import dev.pulseledger.store.Database;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.charset.StandardCharsets;

/** Liveness, readiness, Prometheus metrics and the OpenAPI document: no caller key needed. */
public final class HealthRoutes {
    record Liveness(String status) {}

    /** {@code status} is up when this node can serve writes; the others say which part is down. */
    record Readiness(String status, String database, String writes) {}

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
        Responses.ok(res, new Liveness("up"));
    }

    /** Ready when the database answers and this node can write to it (not full, not read-only). */
    private void ready(ServerRequest req, ServerResponse res) {
        boolean reachable = database.isReachable();
        boolean writable = reachable && database.canWrite();
        Responses.json(
                res, writable ? 200 : 503, new Readiness(upOrDown(writable), upOrDown(reachable), upOrDown(writable)));
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

    private static String upOrDown(boolean up) {
        return up ? "up" : "down";
    }
}
