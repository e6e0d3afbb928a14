package dev.pulseledger;

import dev.pulseledger.app.Modules;
import dev.pulseledger.app.StartedParts;
import dev.pulseledger.app.WebModule;
import dev.pulseledger.config.Config;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.AdminKeys;
import dev.pulseledger.metrics.NodeMetrics;
import io.helidon.webserver.WebServer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node: its modules built in order on one list of parts, which starts them in that order and
 * closes them in reverse (see {@link StartedParts}).
 */
public final class Application implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Application.class);

    private final StartedParts parts;
    private final WebServer server;
    private final RouteTable routes;
    /** Logs where the node listens, once it does. */
    private final Runnable announce;

    private Application(StartedParts parts, WebServer server, RouteTable routes, Runnable announce) {
        this.parts = parts;
        this.server = server;
        this.routes = routes;
        this.announce = announce;
    }

    /** Starts a node; {@code console} receives the one-time secrets (admin key, demo key). */
    public static Application start(Config config, PrintStream console) {
        return start(config, console, Clock.systemUTC());
    }

    /** Starts a node whose every notion of time (expiries, maintenance windows, uptime) comes from {@code clock}. */
    public static Application start(Config config, PrintStream console, Clock clock) {
        return start(config, console, clock, step -> {});
    }

    /**
     * Builds the parts (opening the database pools, wiring stores and routes, starting no worker),
     * then starts the workers and the server in order; when a step fails, every part built or started
     * so far closes in reverse order before the failure is thrown. {@code afterEachStep} hears each
     * step's name once it has run.
     */
    static Application start(Config config, PrintStream console, Clock clock, Consumer<String> afterEachStep) {
        StartedParts parts = new StartedParts(afterEachStep);
        try {
            Application application = build(config, console, clock, parts);
            parts.startAll();
            application.announce.run();
            return application;
        } catch (RuntimeException | Error e) {
            parts.close();
            throw e;
        }
    }

    private static Application build(Config config, PrintStream console, Clock clock, StartedParts parts) {
        WebModule web = WebModule.prepare(config);
        PrometheusMeterRegistry metrics = NodeMetrics.create(BuildInfo.version());
        parts.add("metrics", metrics, metrics::close);
        parts.add("garbage collection metrics", new JvmGcMetrics()).bindTo(metrics);
        Modules modules = Modules.build(config, console, clock, metrics, parts);
        RouteTable routes = web.routeTable(
                metrics,
                modules.access(),
                modules.console().activity(),
                modules.db().ownWrites(),
                clock,
                parts);
        modules.register(routes, config, metrics, clock);
        WebServer server = web.server(routes, parts);
        modules.events().endStreamsBeforeTheServer(parts);
        Runnable announce = () -> {
            LOG.info(
                    "Pulseledger {} listening on {} with {}",
                    BuildInfo.version(),
                    web.url(server),
                    modules.db().main().describe());
            LOG.info(
                    "Admin key in force: {}. {}",
                    modules.access().adminKeys().description(),
                    AdminKeys.REPLACE_LOST_KEY);
            modules.banner().print(console, web.url(server));
        };
        return new Application(parts, server, routes, announce);
    }

    public int port() {
        return server.port();
    }

    /** Every route this node serves, for the OpenAPI coverage test. */
    public List<RouteTable.Route> routes() {
        return routes.routes();
    }

    /**
     * Closes the parts in reverse order of their start: ends open event streams, stops taking
     * requests, lets webhook attempts in flight finish and queued spends commit, then closes the database.
     */
    @Override
    public void close() {
        parts.close();
        LOG.info("Pulseledger stopped: requests drained, queued spends committed, database closed");
    }
}
