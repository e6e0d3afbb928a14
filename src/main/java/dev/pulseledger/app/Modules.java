package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.docs.DocsRoutes;
import dev.pulseledger.health.HealthRoutes;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.status.page.StatusPageRoutes;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.util.Optional;

/**
 * A node's modules, built in the order they need each other, and their routes, registered in the
 * order Helidon matches them.
 */
public record Modules(
        DatabaseModule db,
        AccessModule access,
        EventsModule events,
        LedgerModule ledger,
        StatusModule status,
        SubscribersModule subscribers,
        ConsoleModule console,
        StartBanner banner) {

    /** Builds every module on {@code parts}; the demo seed, when asked for, runs once the workers have started. */
    public static Modules build(
            Config config, PrintStream out, Clock clock, PrometheusMeterRegistry metrics, StartedParts parts) {
        DatabaseModule db = DatabaseModule.open(config, metrics, parts);
        AccessModule access = AccessModule.build(config, db, clock, out, metrics, parts);
        EventsModule events = EventsModule.build(config, db, clock, metrics, parts);
        LedgerModule ledger = LedgerModule.build(config, db, events.outbox(), access, clock, metrics, parts);
        SubscribersModule subscribers = SubscribersModule.build(config, db, events, clock, metrics, parts);
        StatusModule status = StatusModule.build(config, db, events.outbox(), subscribers.sink(), clock, parts);
        ConsoleModule console = ConsoleModule.build(db, clock, parts);
        Optional<DemoSeed> demo = Optional.empty();
        if (config.get(Settings.DEMO)) {
            DemoSeed seed = new DemoSeed(access, ledger.writer(), status, clock);
            parts.startLater("demo seed", seed::run);
            demo = Optional.of(seed);
        }
        StartBanner banner = new StartBanner(
                demo, StartBanner.servesStatusPage(config), access.adminKeys().description());
        return new Modules(db, access, events, ledger, status, subscribers, console, banner);
    }

    /** Registers every route; a literal path and a template that could match it keep the order they had. */
    public void register(RouteTable routes, Config config, PrometheusMeterRegistry metrics, Clock clock) {
        new HealthRoutes(db.main(), metrics).register(routes);
        status.registerPulse(routes);
        events.registerStreams(routes, config, access.access(), ledger.history(), metrics);
        ledger.registerApi(routes, access, metrics, clock);
        access.register(routes, ledger.history()::hasPool, clock);
        ledger.registerAdmin(routes, access, clock);
        status.registerAdmin(routes, clock);
        events.registerAdmin(routes, clock);
        subscribers.registerAdmin(routes, status, events.webhookUrls(), clock);
        ledger.registerLowBalanceAdmin(routes);
        new DocsRoutes(StartBanner.servesStatusPage(config) ? StatusPageRoutes.PATH : DocsRoutes.PATH).register(routes);
        console.register(routes, config, access, ledger, status, events, clock);
        status.registerPage(routes, config, clock, subscribers.registerPublic(routes, config, status, clock));
    }
}
