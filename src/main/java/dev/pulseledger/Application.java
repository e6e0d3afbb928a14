package dev.pulseledger;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.LowBalanceThresholds;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.admin.AccountAdminRoutes;
import dev.pulseledger.admin.KeyAdminRoutes;
import dev.pulseledger.admin.LowBalanceAdminRoutes;
import dev.pulseledger.admin.PlanAdminRoutes;
import dev.pulseledger.admin.ServiceAdminRoutes;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.ConfigException;
import dev.pulseledger.config.EventSettings;
import dev.pulseledger.docs.DocsRoutes;
import dev.pulseledger.events.AccountStreamRoutes;
import dev.pulseledger.events.EventFeed;
import dev.pulseledger.events.EventStreams;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.events.PulseStreamRoutes;
import dev.pulseledger.health.HealthRoutes;
import dev.pulseledger.http.DirectErrors;
import dev.pulseledger.http.ErrorHandlers;
import dev.pulseledger.http.RequestDeadlines;
import dev.pulseledger.http.RequestFilter;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.ServerSettings;
import dev.pulseledger.http.ServerTls;
import dev.pulseledger.keys.AdminKeys;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.pulse.PulseFeed;
import dev.pulseledger.pulse.PulseRoutes;
import dev.pulseledger.pulse.ServiceStore;
import dev.pulseledger.ratelimit.PlanRateLimits;
import dev.pulseledger.ratelimit.RateLimitFilter;
import dev.pulseledger.ratelimit.RateLimiter;
import dev.pulseledger.statuspage.StatusPageRoutes;
import dev.pulseledger.store.Database;
import dev.pulseledger.tokens.BalanceReader;
import dev.pulseledger.tokens.GroupCommitLedger;
import dev.pulseledger.tokens.IdempotencyCleaner;
import dev.pulseledger.tokens.SpendBatchStore;
import dev.pulseledger.tokens.SpendingQueries;
import dev.pulseledger.tokens.TokenRoutes;
import dev.pulseledger.usage.LedgerHistory;
import dev.pulseledger.usage.UsageRoutes;
import dev.pulseledger.webhooks.DeliveryWorker;
import dev.pulseledger.webhooks.WebhookAdminRoutes;
import dev.pulseledger.webhooks.WebhookStore;
import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires one node together, in one place: database, stores, routes and the HTTP server. */
public final class Application implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Application.class);
    private static final Duration MAX_SPEND_WAIT = Duration.ofSeconds(30);

    private final Database database;
    private final GroupCommitLedger ledger;
    private final BalanceReader balances;
    private final WebServer server;
    private final RouteTable routes;
    private final RequestDeadlines deadlines;
    private final IdempotencyCleaner idempotencyCleaner;
    private final EventFeed eventFeed;
    private final DeliveryWorker webhookWorker;

    private Application(
            Database database,
            GroupCommitLedger ledger,
            BalanceReader balances,
            WebServer server,
            RouteTable routes,
            RequestDeadlines deadlines,
            IdempotencyCleaner idempotencyCleaner,
            EventFeed eventFeed,
            DeliveryWorker webhookWorker) {
        this.database = database;
        this.ledger = ledger;
        this.balances = balances;
        this.server = server;
        this.routes = routes;
        this.deadlines = deadlines;
        this.idempotencyCleaner = idempotencyCleaner;
        this.eventFeed = eventFeed;
        this.webhookWorker = webhookWorker;
    }

    /** Starts a node; {@code console} receives the one-time secrets (admin key, demo key). */
    public static Application start(Config config, PrintStream console) {
        return start(config, console, Clock.systemUTC());
    }

    /** Starts a node whose rules read the time from {@code clock}: tests move it instead of sleeping. */
    public static Application start(Config config, PrintStream console, Clock clock) {
        Optional<Tls> tls = config.tls().map(ServerTls::load);
        PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        new JvmMemoryMetrics().bindTo(metrics);
        new JvmGcMetrics().bindTo(metrics);
        new JvmThreadMetrics().bindTo(metrics);
        new ProcessorMetrics().bindTo(metrics);

        Database database = Database.open(new Database.Settings(
                config.databaseUrl(),
                config.databasePoolSize(),
                config.databaseConnectionTimeout(),
                config.databaseStatementTimeout(),
                config.databaseStartupTimeout()));
        PlanStore plans = new PlanStore(database);
        AccountStore accounts = new AccountStore(database);
        KeyStore keys = new KeyStore(database);
        WebhookStore webhooks = new WebhookStore(database);
        Outbox outbox = new Outbox(database, webhooks::enqueue);
        ServiceStore services = new ServiceStore(database, outbox);
        PulseFeed feed = new PulseFeed(services);
        List<String> adminHashes = AdminKeys.acceptedHashes(config.adminKey(), keys, clock, console);
        Authenticator authenticator = new Authenticator(keys, clock, adminHashes);
        GroupCommitLedger ledger = new GroupCommitLedger(
                new SpendBatchStore(database, clock, outbox),
                new GroupCommitLedger.Limits(config.spendQueueLength(), config.spendBatchSize(), MAX_SPEND_WAIT),
                metrics);
        EventSettings events = config.events();
        EventFeed eventFeed = EventFeed.start(outbox, events.pollInterval());
        DeliveryWorker webhookWorker = DeliveryWorker.start(
                webhooks,
                outbox,
                new DeliveryWorker.Settings(
                        events.pollInterval(),
                        events.webhookMaxAttempts(),
                        events.webhookRetryBase(),
                        events.webhookTimeout()),
                clock,
                new SecureRandom());
        IdempotencyCleaner idempotencyCleaner = new IdempotencyCleaner(
                        database, clock, config.idempotencyRetention(), IdempotencyCleaner.Limits.DEFAULT)
                .start();
        if (config.demo()) {
            DemoSeed.seed(plans, accounts, keys, services, clock, console);
        }

        HttpRouting.Builder routing = HttpRouting.builder();
        routing.addFilter(new RequestFilter(metrics));
        routing.addFilter(new RateLimitFilter(authenticator, new PlanRateLimits(plans), new RateLimiter()));
        ErrorHandlers.install(routing);
        RouteTable routes = new RouteTable(routing);
        new HealthRoutes(database, metrics).register(routes);
        new PulseRoutes(authenticator, feed).register(routes);
        EventStreams streams = new EventStreams(
                authenticator,
                eventFeed,
                events.heartbeatInterval(),
                config.serverLimits().maxConcurrentRequests() / 2);
        new PulseStreamRoutes(authenticator, streams).register(routes);
        LedgerHistory history = new LedgerHistory(database);
        new AccountStreamRoutes(authenticator, streams, history).register(routes);
        BalanceReader balances = new BalanceReader(database, accounts, config.databaseStatementTimeout());
        new TokenRoutes(
                        authenticator,
                        ledger,
                        balances,
                        new SpendingQueries(database),
                        accounts,
                        plans,
                        metrics,
                        history,
                        clock)
                .register(routes);
        new UsageRoutes(authenticator, history, clock).register(routes);
        new PlanAdminRoutes(authenticator, plans, clock).register(routes);
        new AccountAdminRoutes(authenticator, accounts, clock).register(routes);
        new KeyAdminRoutes(authenticator, keys, accounts, clock).register(routes);
        new ServiceAdminRoutes(authenticator, services, feed, clock).register(routes);
        new WebhookAdminRoutes(authenticator, webhooks, clock).register(routes);
        new LowBalanceAdminRoutes(authenticator, new LowBalanceThresholds(database)).register(routes);
        new DocsRoutes(config.publicStatusPage() ? StatusPageRoutes.PATH : DocsRoutes.PATH).register(routes);
        if (config.publicStatusPage()) {
            new StatusPageRoutes(feed).register(routes);
        }
        routes.finish();

        RequestDeadlines deadlines = new RequestDeadlines(
                config.serverLimits().requestTimeout(), Set.of(PulseStreamRoutes.PATH, AccountStreamRoutes.PATH));
        WebServerConfig.Builder serverConfig = WebServer.builder()
                .host(config.host())
                .port(config.port())
                // Without TCP_NODELAY a response written in two segments waits for the client's delayed ACK (~40 ms).
                .connectionOptions(socket -> socket.tcpNoDelay(true))
                .directHandlers(DirectErrors.handlers())
                .shutdownHook(false)
                .routing(routing);
        ServerSettings.apply(serverConfig, config.serverLimits(), deadlines);
        tls.ifPresent(serverConfig::tls);
        WebServer server = serverConfig.build().start();
        if (!server.isRunning() || server.port() < 0) {
            eventFeed.close();
            webhookWorker.close();
            deadlines.close();
            idempotencyCleaner.close();
            ledger.close();
            balances.close();
            database.close();
            throw new ConfigException("Cannot listen on " + config.host() + ":" + config.port()
                    + " (--host/--port, PULSELEDGER_HOST/PULSELEDGER_PORT): is the port already in use?");
        }
        LOG.info(
                "Pulseledger listening on port {} ({}) with a {} database",
                server.port(),
                tls.isPresent() ? "HTTPS" : "HTTP",
                database.dialect().name().toLowerCase());
        return new Application(
                database, ledger, balances, server, routes, deadlines, idempotencyCleaner, eventFeed, webhookWorker);
    }

    public int port() {
        return server.port();
    }

    /** Every route this node serves, for the OpenAPI coverage test. */
    public List<RouteTable.Route> routes() {
        return routes.routes();
    }

    /**
     * Ends open event streams, stops taking requests, lets queued spends commit and webhook attempts
     * in flight finish, then closes the database.
     */
    @Override
    public void close() {
        eventFeed.close();
        server.stop();
        webhookWorker.close();
        deadlines.close();
        idempotencyCleaner.close();
        ledger.close();
        balances.close();
        database.close();
        LOG.info("Pulseledger stopped: requests drained, queued spends committed, database closed");
    }
}
