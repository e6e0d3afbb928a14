package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.console.SpendActivity;
import dev.pulseledger.console.SpendActivityFilter;
import dev.pulseledger.db.OwnWrites;
import dev.pulseledger.events.AccountStreamRoutes;
import dev.pulseledger.events.PulseStreamRoutes;
import dev.pulseledger.http.AccessLog;
import dev.pulseledger.http.CorsFilter;
import dev.pulseledger.http.DirectErrors;
import dev.pulseledger.http.ErrorHandlers;
import dev.pulseledger.http.FailedAuthGate;
import dev.pulseledger.http.ListenAddress;
import dev.pulseledger.http.OwnWritesFilter;
import dev.pulseledger.http.RefusalHold;
import dev.pulseledger.http.RequestDeadlines;
import dev.pulseledger.http.RequestFilter;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.ServerSettings;
import dev.pulseledger.http.ServerTls;
import dev.pulseledger.http.StrictTransportSecurity;
import dev.pulseledger.http.edge.UnreadBodyCloses;
import dev.pulseledger.ratelimit.LocalRateLimiter;
import dev.pulseledger.ratelimit.RateLimitFilter;
import dev.pulseledger.ratelimit.RateLimiter;
import dev.pulseledger.ratelimit.RedisRateLimiter;
import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.util.Optional;
import java.util.Set;

/**
 * The HTTP side of a node: TLS and the listen address, checked before anything opens; the filters in
 * front of every route; the route table the other modules register on; the request deadlines and the server.
 */
public final class WebModule {
    private final Config config;
    private final Optional<Tls> tls;
    private final Optional<StrictTransportSecurity> hsts;
    private final HttpRouting.Builder routing = HttpRouting.builder();

    private WebModule(Config config, Optional<Tls> tls, Optional<StrictTransportSecurity> hsts) {
        this.config = config;
        this.tls = tls;
        this.hsts = hsts;
    }

    /** Loads the TLS keystore and checks that the address is free, so that neither fails after the database opened. */
    public static WebModule prepare(Config config) {
        Optional<Tls> tls = config.tls().map(ServerTls::load);
        Optional<StrictTransportSecurity> hsts =
                tls.map(on -> new StrictTransportSecurity(config.get(Settings.HSTS_MAX_AGE)));
        ListenAddress.ensureFree(config.get(Settings.HOST), config.get(Settings.PORT));
        return new WebModule(config, tls, hsts);
    }

    /** Installs the filters, in the order a request meets them, and returns the table routes are added to. */
    public RouteTable routeTable(
            PrometheusMeterRegistry metrics,
            AccessModule access,
            SpendActivity activity,
            Optional<OwnWrites> ownWrites,
            Clock clock,
            StartedParts parts) {
        if (config.get(Settings.ACCESS_LOG)) {
            routing.addFilter(new AccessLog());
        }
        routing.addFilter(new RequestFilter(metrics));
        if (config.get(Settings.CORS_ALLOWED_ORIGINS).enabled()) {
            routing.addFilter(new CorsFilter(config.get(Settings.CORS_ALLOWED_ORIGINS)));
        }
        routing.addFilter(new UnreadBodyCloses());
        hsts.ifPresent(routing::addFilter);
        routing.addFilter(new FailedAuthGate(
                access.access(),
                new RefusalHold(
                        config.get(Settings.AUTH_FAILURE_HOLD),
                        config.serverLimits().maxConcurrentRequests() / 4)));
        routing.addFilter(new RateLimitFilter(access.access(), access.planLimits(), rateLimiter(clock, parts)));
        routing.addFilter(new SpendActivityFilter(access.access(), activity));
        ownWrites.ifPresent(writes -> routing.addFilter(new OwnWritesFilter(access.access(), writes)));
        ErrorHandlers.install(routing);
        return new RouteTable(routing, access.access(), access.operators().audit());
    }

    /** Builds the server on the finished routes; it starts last, once every worker runs. */
    public WebServer server(RouteTable routes, StartedParts parts) {
        routes.finish();
        RequestDeadlines deadlines = parts.add(
                "request deadlines",
                new RequestDeadlines(
                        config.serverLimits().requestTimeout(),
                        Set.of(PulseStreamRoutes.PATH, AccountStreamRoutes.PATH)));
        parts.startLater("request deadlines", deadlines::start);
        WebServerConfig.Builder serverConfig = WebServer.builder()
                .host(config.get(Settings.HOST))
                .port(config.get(Settings.PORT))
                // Without TCP_NODELAY a response written in two segments waits for the client's delayed ACK (~40 ms).
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .directHandlers(DirectErrors.handlers(
                        hsts.map(StrictTransportSecurity::header).stream().toList()))
                .shutdownHook(false)
                .routing(routing);
        ServerSettings.apply(serverConfig, config.serverLimits(), deadlines);
        tls.ifPresent(serverConfig::tls);
        // Plain HTTP goes through a plain socket, which writes a response in one system call: Helidon's
        // NIO socket copies it out through an 8 KB buffer, so the ~11 KB pulse feed took two writes
        // (server CPU per pulse read 25 -> 19 us). TLS stays on NIO, where our TLS parameters apply.
        serverConfig.useNio(tls.isPresent());
        WebServer server = serverConfig.build();
        parts.add("http server", server, server::stop);
        parts.startLater("http server", () -> {
            server.start();
            if (!server.isRunning() || server.port() < 0) {
                throw ListenAddress.cannotListen(
                        config.get(Settings.HOST), config.get(Settings.PORT), "the web server did not start");
            }
        });
        return server;
    }

    /** The address a client reaches the started server at. */
    public String url(WebServer server) {
        return ListenAddress.url(tls.isPresent(), config.get(Settings.HOST), server.port());
    }

    /** Each node counts alone unless Redis is configured; then every node shares each key's bucket. */
    private RateLimiter rateLimiter(Clock clock, StartedParts parts) {
        RateLimiter local = new LocalRateLimiter();
        return config.get(Settings.REDIS_URL)
                .<RateLimiter>map(url -> parts.add("redis rate limiter", RedisRateLimiter.of(url, local, clock)))
                .orElse(local);
    }
}
