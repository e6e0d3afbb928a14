package dev.pulseledger;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.LowBalanceThresholds;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.admin.AccountAdminRoutes;
import dev.pulseledger.admin.KeyAdminRoutes;
import dev.pulseledger.admin.LowBalanceAdminRoutes;
import dev.pulseledger.admin.PlanAdminRoutes;
import dev.pulseledger.admin.ReservationAdminRoutes;
import dev.pulseledger.admin.ServiceAdminRoutes;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.EventSettings;
import dev.pulseledger.config.MailSettings;
import dev.pulseledger.config.Settings;
import dev.pulseledger.console.ConsoleRoutes;
import dev.pulseledger.console.SpendActivity;
import dev.pulseledger.console.SpendActivityFilter;
import dev.pulseledger.docs.DocsRoutes;
import dev.pulseledger.events.AccountStreamRoutes;
import dev.pulseledger.events.EventFeed;
import dev.pulseledger.events.EventStreams;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.events.PulseStreamRoutes;
import dev.pulseledger.health.HealthRoutes;
import dev.pulseledger.http.Access;
import dev.pulseledger.http.AccessLog;
import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.CorsFilter;
import dev.pulseledger.http.DirectErrors;
import dev.pulseledger.http.ErrorHandlers;
import dev.pulseledger.http.FailedAuthGate;
import dev.pulseledger.http.HttpsRequests;
import dev.pulseledger.http.ListenAddress;
import dev.pulseledger.http.RefusalHold;
import dev.pulseledger.http.RequestDeadlines;
import dev.pulseledger.http.RequestFilter;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.ServerSettings;
import dev.pulseledger.http.ServerTls;
import dev.pulseledger.http.StrictTransportSecurity;
import dev.pulseledger.http.UnreadBodyCloses;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.keys.AccessFeed;
import dev.pulseledger.keys.AdminKeys;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyDirectory;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.BusyAccountLanes;
import dev.pulseledger.ledger.LedgerStore;
import dev.pulseledger.ledger.LedgerWriter;
import dev.pulseledger.ledger.Renewals;
import dev.pulseledger.ledger.ReservationQueries;
import dev.pulseledger.ledger.SpendingQueries;
import dev.pulseledger.metrics.NodeMetrics;
import dev.pulseledger.pulse.PulseFeed;
import dev.pulseledger.pulse.PulseRoutes;
import dev.pulseledger.pulse.ServiceStore;
import dev.pulseledger.ratelimit.FailedAuthLimiter;
import dev.pulseledger.ratelimit.LocalRateLimiter;
import dev.pulseledger.ratelimit.PlanRateLimits;
import dev.pulseledger.ratelimit.RateLimitFilter;
import dev.pulseledger.ratelimit.RateLimiter;
import dev.pulseledger.ratelimit.RedisRateLimiter;
import dev.pulseledger.status.IncidentAdminRoutes;
import dev.pulseledger.status.IncidentStore;
import dev.pulseledger.status.MaintenanceAdminRoutes;
import dev.pulseledger.status.MaintenanceScheduler;
import dev.pulseledger.status.MaintenanceStore;
import dev.pulseledger.status.PulseHistoryRoutes;
import dev.pulseledger.status.ServiceHistoryAdminRoutes;
import dev.pulseledger.status.StatusHistory;
import dev.pulseledger.status.subscribers.MailWorker;
import dev.pulseledger.status.subscribers.NoticeLog;
import dev.pulseledger.status.subscribers.SubscribeRoutes;
import dev.pulseledger.status.subscribers.SubscriberAdminRoutes;
import dev.pulseledger.status.subscribers.SubscriberDirectory;
import dev.pulseledger.status.subscribers.SubscriberStore;
import dev.pulseledger.statuspage.Branding;
import dev.pulseledger.statuspage.PageSection;
import dev.pulseledger.statuspage.StatusFeedRoutes;
import dev.pulseledger.statuspage.StatusPageRoutes;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.MicroBatcher;
import dev.pulseledger.tokens.BalanceReader;
import dev.pulseledger.tokens.IdempotencyCleaner;
import dev.pulseledger.tokens.ReservationRoutes;
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
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires one node together, in one place: database, stores, routes and the HTTP server. */
public final class Application implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Application.class);
    private static final Duration MAX_SPEND_WAIT = Duration.ofSeconds(30);

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
        Optional<Tls> tls = config.tls().map(ServerTls::load);
        Optional<StrictTransportSecurity> hsts =
                tls.map(on -> new StrictTransportSecurity(config.get(Settings.HSTS_MAX_AGE)));
        ListenAddress.ensureFree(config.get(Settings.HOST), config.get(Settings.PORT));
        PrometheusMeterRegistry metrics = NodeMetrics.create();
        parts.add("metrics", metrics, metrics::close);
        parts.add("garbage collection metrics", new JvmGcMetrics()).bindTo(metrics);

        // Authentication reads through its own connections, so it never queues behind the spend writer.
        int lookupConnections = lookupConnections(config.get(Settings.DB_POOL_SIZE));
        boolean transactionPooler = config.get(Settings.DB_POOLER).equals("transaction");
        Database database = parts.add(
                "database",
                Database.open(new Database.Settings(
                        config.get(Settings.DATABASE_URL),
                        config.get(Settings.DB_POOL_SIZE) - lookupConnections,
                        config.get(Settings.DB_CONNECTION_TIMEOUT),
                        config.get(Settings.DB_STATEMENT_TIMEOUT),
                        config.get(Settings.DB_STARTUP_TIMEOUT),
                        transactionPooler)));
        Database lookups = parts.add(
                "lookup database",
                Database.openWithoutMigrating(new Database.Settings(
                        config.get(Settings.DATABASE_URL),
                        lookupConnections,
                        config.get(Settings.DB_CONNECTION_TIMEOUT),
                        config.get(Settings.DB_STATEMENT_TIMEOUT),
                        config.get(Settings.DB_STARTUP_TIMEOUT),
                        transactionPooler)));
        countTransactions(metrics, database, "main");
        countTransactions(metrics, lookups, "lookups");
        database.bindPoolMetrics(metrics, "main");
        lookups.bindPoolMetrics(metrics, "lookups");
        database.bindReachability(metrics);
        AccessChangeLog accessChanges = new AccessChangeLog(database, lookups, clock);
        PlanStore plans = new PlanStore(database, accessChanges);
        AccountStore accounts = new AccountStore(database, accessChanges);
        KeyStore keys = new KeyStore(database, lookups, accessChanges);
        WebhookStore webhooks = new WebhookStore(database);
        Outbox outbox = new Outbox(database, webhooks::enqueue);
        ServiceStore services = new ServiceStore(database, outbox);
        NoticeLog notices = new NoticeLog(outbox, webhooks);
        IncidentStore incidents = new IncidentStore(database, services, outbox, notices);
        MaintenanceStore maintenances = new MaintenanceStore(database, services, outbox, notices);
        SubscriberStore subscribers = new SubscriberStore(database);
        StatusHistory history = new StatusHistory(database);
        PulseFeed feed = new PulseFeed(services, incidents, maintenances);
        AdminKeys.InForce adminKeys = AdminKeys.accepted(config.get(Settings.ADMIN_KEY), keys, clock, console);
        List<String> adminHashes = adminKeys.hashes();
        AccessFeed accessFeed = AccessFeed.from(accessChanges, AccessFeed.POLL_INTERVAL);
        KeyDirectory keyDirectory = KeyDirectory.load(keys, accessFeed);
        countAuthenticationReads(metrics, keyDirectory, accessFeed);
        Authenticator authenticator = new Authenticator(keyDirectory, clock, adminHashes);
        PlanRateLimits planLimits = new PlanRateLimits(plans, accessFeed);
        parts.add("access feed", accessFeed);
        parts.startLater("access feed", accessFeed::start);
        Access access = new Access(
                authenticator,
                new ClientAddresses(config.get(Settings.TRUSTED_PROXIES)),
                new FailedAuthLimiter(config.get(Settings.AUTH_FAILURES_PER_MINUTE)));
        // The writer's thread runs from its construction: the demo seed below spends through it.
        LedgerWriter ledger = parts.add(
                "ledger writer",
                new LedgerWriter(
                        LedgerStore.forDatabase(database, outbox, accessChanges),
                        clock,
                        new MicroBatcher.Limits(
                                config.get(Settings.SPEND_QUEUE_LENGTH),
                                config.get(Settings.SPEND_BATCH_SIZE),
                                MAX_SPEND_WAIT),
                        new BusyAccountLanes.Limits(
                                config.get(Settings.ACCOUNT_LOCK_WAIT), busyAccountConnections(config)),
                        metrics));
        Renewals renewals = parts.add("renewals", new Renewals(database, ledger, clock, Renewals.DEFAULT_LIMITS));
        parts.startLater("renewals", renewals::start);
        EventSettings events = config.events();
        MaintenanceScheduler maintenanceScheduler = parts.add(
                "maintenance scheduler",
                new MaintenanceScheduler(maintenances, clock, events.pollInterval(), feed::invalidate));
        parts.startLater("maintenance scheduler", maintenanceScheduler::start);
        EventFeed eventFeed = parts.add("event feed", EventFeed.atEnd(outbox, events.pollInterval()));
        parts.startLater("event feed", eventFeed::start);
        // The worker's HTTP client owns a selector thread from its creation, which only a started worker's close
        // ends reliably, so the worker is made and started in one step.
        DeliveryWorker.Settings delivery = new DeliveryWorker.Settings(
                events.pollInterval(), events.webhookMaxAttempts(), events.webhookRetryBase(), events.webhookTimeout());
        parts.startLater(
                "webhook worker",
                () -> parts.add(
                        "webhook worker",
                        DeliveryWorker.create(webhooks, outbox, delivery, clock, new SecureRandom(), metrics)
                                .start()));
        Optional<MailSettings> mail = config.mail();
        if (mail.isPresent()) {
            MailWorker.Settings mailing =
                    new MailWorker.Settings(events.pollInterval(), events.webhookRetryBase(), events.webhookTimeout());
            parts.startLater(
                    "status mail worker",
                    () -> parts.add(
                            "status mail worker",
                            MailWorker.create(
                                            database,
                                            subscribers,
                                            mail.get(),
                                            config.get(Settings.STATUS_PAGE_NAME),
                                            mailing,
                                            clock,
                                            new SecureRandom(),
                                            metrics)
                                    .start()));
        }
        IdempotencyCleaner idempotencyCleaner = parts.add(
                "idempotency cleaner",
                new IdempotencyCleaner(
                        database,
                        clock,
                        config.get(Settings.IDEMPOTENCY_RETENTION),
                        IdempotencyCleaner.DEFAULT_LIMITS));
        parts.startLater("idempotency cleaner", idempotencyCleaner::start);
        SpendActivity spendActivity = parts.add("spend activity", new SpendActivity(database, clock));
        parts.startLater("spend activity", spendActivity::start);
        if (config.get(Settings.DEMO)) {
            parts.startLater("demo seed", () -> DemoSeed.seed(plans, accounts, ledger, keys, services, clock, console));
        }

        HttpRouting.Builder routing = HttpRouting.builder();
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
                access,
                new RefusalHold(
                        config.get(Settings.AUTH_FAILURE_HOLD),
                        config.serverLimits().maxConcurrentRequests() / 4)));
        routing.addFilter(new RateLimitFilter(access, planLimits, rateLimiter(config, clock, parts)));
        routing.addFilter(new SpendActivityFilter(access, spendActivity));
        ErrorHandlers.install(routing);
        RouteTable routes = new RouteTable(routing, access);
        new HealthRoutes(database, metrics).register(routes);
        new PulseRoutes(access, feed).register(routes);
        EventStreams streams = new EventStreams(
                access,
                eventFeed,
                events.heartbeatInterval(),
                config.serverLimits().maxConcurrentRequests() / 2,
                metrics);
        new PulseStreamRoutes(access, streams).register(routes);
        BalanceReader balances =
                parts.add("balance reader", new BalanceReader(database, config.get(Settings.DB_STATEMENT_TIMEOUT)));
        LedgerHistory ledgerHistory = new LedgerHistory(database);
        new AccountStreamRoutes(access, streams, ledgerHistory).register(routes);
        new TokenRoutes(
                        access,
                        ledger,
                        balances,
                        new SpendingQueries(database),
                        accounts,
                        plans,
                        metrics,
                        ledgerHistory,
                        clock)
                .register(routes);
        ReservationQueries reservations = new ReservationQueries(database);
        new ReservationRoutes(access, ledger, reservations).register(routes);
        Gauge.builder("pulseledger.reservations.held.tokens", reservations, ReservationQueries::heldTokens)
                .description("Tokens held by live reservations, on every account and node")
                .register(metrics);
        new UsageRoutes(access, ledgerHistory, clock).register(routes);
        new PlanAdminRoutes(plans, clock).register(routes);
        new AccountAdminRoutes(authenticator, accounts, ledger, clock).register(routes);
        new ReservationAdminRoutes(accounts, ledger, reservations).register(routes);
        new KeyAdminRoutes(authenticator, keys, accounts, clock).register(routes);
        new ServiceAdminRoutes(services, feed, clock).register(routes);
        new ServiceHistoryAdminRoutes(history, services).register(routes);
        new IncidentAdminRoutes(incidents, feed, clock).register(routes);
        new MaintenanceAdminRoutes(maintenances, feed, clock).register(routes);
        new PulseHistoryRoutes(access, incidents, history, feed, clock).register(routes);
        new WebhookAdminRoutes(webhooks, clock).register(routes);
        new SubscriberAdminRoutes(new SubscriberDirectory(database, webhooks), subscribers, services, clock)
                .register(routes);
        new LowBalanceAdminRoutes(new LowBalanceThresholds(database)).register(routes);
        new DocsRoutes(config.get(Settings.PUBLIC_STATUS_PAGE) ? StatusPageRoutes.PATH : DocsRoutes.PATH)
                .register(routes);
        new ConsoleRoutes(
                        new ConsoleRoutes.Stores(
                                database,
                                accounts,
                                plans,
                                keys,
                                ledger,
                                balances,
                                services,
                                feed,
                                incidents,
                                maintenances,
                                webhooks),
                        authenticator,
                        new HttpsRequests(config.get(Settings.TRUSTED_PROXIES)),
                        clock)
                .register(routes);
        if (config.get(Settings.PUBLIC_STATUS_PAGE)) {
            Branding branding =
                    new Branding(config.get(Settings.STATUS_PAGE_NAME), config.get(Settings.STATUS_PAGE_URL));
            PageSection subscribeForm = PageSection.NONE;
            if (mail.isPresent()) {
                SubscribeRoutes subscribing = new SubscribeRoutes(
                        subscribers,
                        feed,
                        new ClientAddresses(config.get(Settings.TRUSTED_PROXIES)),
                        clock,
                        branding.title());
                subscribing.register(routes);
                subscribeForm = subscribing::formSection;
            }
            new StatusPageRoutes(feed, incidents, history, clock, branding, subscribeForm).register(routes);
            new StatusFeedRoutes(feed, incidents, maintenances, clock, branding).register(routes);
        }
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
        // Closed before the server stops, so that open event streams end instead of holding it up.
        parts.add("open event streams", eventFeed, eventFeed::close);
        Runnable announce = () -> {
            LOG.info(
                    "Pulseledger {} listening on {} with {}",
                    BuildInfo.version(),
                    ListenAddress.url(tls.isPresent(), config.get(Settings.HOST), server.port()),
                    database.describe());
            LOG.info("Admin key in force: {}. {}", adminKeys.description(), AdminKeys.REPLACE_LOST_KEY);
        };
        return new Application(parts, server, routes, announce);
    }

    /** Each node counts alone unless Redis is configured; then every node shares each key's bucket. */
    private static RateLimiter rateLimiter(Config config, Clock clock, StartedParts parts) {
        RateLimiter local = new LocalRateLimiter();
        return config.get(Settings.REDIS_URL)
                .<RateLimiter>map(url -> parts.add("redis rate limiter", RedisRateLimiter.of(url, local, clock)))
                .orElse(local);
    }

    private static void countTransactions(PrometheusMeterRegistry metrics, Database database, String pool) {
        FunctionCounter.builder("pulseledger.db.transactions", database, Database::transactions)
                .description("Database transactions and single reads, per connection pool")
                .tag("pool", pool)
                .register(metrics);
    }

    /**
     * The database reads that requests cause on the way to authentication, apart from the access
     * feed's scheduled reads that run whatever the traffic: what a flood of made-up keys could cost.
     */
    private static void countAuthenticationReads(
            PrometheusMeterRegistry metrics, KeyDirectory directory, AccessFeed feed) {
        FunctionCounter.builder("pulseledger.key.lookups", directory, KeyDirectory::lookups)
                .description("Database reads of one key's grant, for a key that exists but was not cached")
                .register(metrics);
        FunctionCounter.builder("pulseledger.access.feed.reads", feed, AccessFeed::scheduledReads)
                .description("Reads of the access change log, on schedule or asked for early")
                .tag("trigger", "schedule")
                .register(metrics);
        FunctionCounter.builder("pulseledger.access.feed.reads", feed, AccessFeed::demandedReads)
                .description("Reads of the access change log, on schedule or asked for early")
                .tag("trigger", "demand")
                .register(metrics);
    }

    /**
     * How many of a node's connections serve key lookups and the access feed: rare once keys are
     * cached, so one, or two from four on so the feed's read never holds up a lookup.
     */
    private static int lookupConnections(int poolSize) {
        return poolSize >= 4 ? 2 : 1;
    }

    /**
     * Accounts locked elsewhere wait for their lock on a connection each, at most half of the writers'
     * pool, so that the writer and the reads keep the rest.
     */
    private static int busyAccountConnections(Config config) {
        int poolSize = config.get(Settings.DB_POOL_SIZE);
        return Math.max(1, (poolSize - lookupConnections(poolSize)) / 2);
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
     * requests, lets webhook attempts in flight finish and queued spends commit, then closes the
     * database.
     */
    @Override
    public void close() {
        parts.close();
        LOG.info("Pulseledger stopped: requests drained, queued spends committed, database closed");
    }
}
