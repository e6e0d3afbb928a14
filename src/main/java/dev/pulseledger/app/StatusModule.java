package dev.pulseledger.app;

import dev.pulseledger.admin.ServiceAdminRoutes;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.admin.IncidentAdminRoutes;
import dev.pulseledger.status.admin.MaintenanceAdminRoutes;
import dev.pulseledger.status.admin.ServiceGroupAdminRoutes;
import dev.pulseledger.status.admin.ServiceHistoryAdminRoutes;
import dev.pulseledger.status.badges.BadgeRoutes;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.heartbeats.HeartbeatRoutes;
import dev.pulseledger.status.heartbeats.HeartbeatStore;
import dev.pulseledger.status.heartbeats.HeartbeatWatch;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.MaintenanceScheduler;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.incidents.NoticeSink;
import dev.pulseledger.status.page.Branding;
import dev.pulseledger.status.page.EmbedRoutes;
import dev.pulseledger.status.page.PageSection;
import dev.pulseledger.status.page.StatusFeedRoutes;
import dev.pulseledger.status.page.StatusPageRoutes;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.pulse.PulseHistoryRoutes;
import dev.pulseledger.status.pulse.PulseRoutes;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.upstream.UpstreamFetcher;
import dev.pulseledger.status.upstream.UpstreamGuard;
import dev.pulseledger.status.upstream.UpstreamPoller;
import dev.pulseledger.status.upstream.UpstreamStore;
import java.time.Clock;

/** Services, incidents, maintenance windows and their history; the pulse feed; the public status page. */
public record StatusModule(
        ServiceStore services,
        ServiceGroupStore groups,
        IncidentStore incidents,
        MaintenanceStore maintenances,
        StatusHistory history,
        PulseFeed feed,
        UpstreamStore upstreams,
        UpstreamGuard upstreamGuard,
        Messages words,
        HeartbeatStore heartbeats) {

    public static StatusModule build(
            Config config, DatabaseModule db, Outbox outbox, NoticeSink notices, Clock clock, StartedParts parts) {
        ServiceStore services = new ServiceStore(db.main(), outbox);
        IncidentStore incidents = new IncidentStore(db.main(), services, outbox, notices);
        MaintenanceStore maintenances = new MaintenanceStore(db.main(), services, outbox, notices);
        StatusHistory history = new StatusHistory(db.main());
        ServiceGroupStore groups = new ServiceGroupStore(db.main());
        PulseFeed feed = new PulseFeed(services, groups, incidents, maintenances);
        MaintenanceScheduler scheduler = parts.add(
                "maintenance scheduler",
                new MaintenanceScheduler(maintenances, clock, config.events().pollInterval(), feed::invalidate));
        parts.startLater("maintenance scheduler", scheduler::start);
        UpstreamStore upstreams = new UpstreamStore(db.main());
        UpstreamGuard guard = new UpstreamGuard(config.get(Settings.UPSTREAM_ALLOW_HTTP));
        // The fetcher's HTTP client owns a thread from its creation, so the poller is made and started in one step.
        parts.startLater(
                "upstream poller",
                () -> parts.add(
                                "upstream poller",
                                new UpstreamPoller(
                                        new UpstreamPoller.Stores(db.main(), upstreams, services, outbox),
                                        new UpstreamFetcher(guard),
                                        clock,
                                        config.get(Settings.UPSTREAM_POLL),
                                        feed::invalidate))
                        .start());
        HeartbeatStore heartbeats = new HeartbeatStore(db.main());
        HeartbeatWatch watch = parts.add(
                "heartbeat watch",
                new HeartbeatWatch(
                        new HeartbeatWatch.Stores(db.main(), heartbeats, services, incidents, outbox),
                        clock,
                        config.events().pollInterval(),
                        feed::invalidate));
        parts.startLater("heartbeat watch", watch::start);
        Messages words = Messages.of("status", config.get(Settings.STATUS_LANGUAGE));
        return new StatusModule(
                services, groups, incidents, maintenances, history, feed, upstreams, guard, words, heartbeats);
    }

    public void registerPulse(RouteTable routes) {
        new PulseRoutes(feed).register(routes);
    }

    public void registerAdmin(RouteTable routes, Clock clock) {
        new ServiceAdminRoutes(services, groups, upstreams, upstreamGuard, feed, clock).register(routes);
        new ServiceGroupAdminRoutes(groups, feed, clock).register(routes);
        new HeartbeatRoutes(heartbeats, services, clock).register(routes);
        new ServiceHistoryAdminRoutes(history, services).register(routes);
        new IncidentAdminRoutes(incidents, feed, clock).register(routes);
        new MaintenanceAdminRoutes(maintenances, feed, clock).register(routes);
        new PulseHistoryRoutes(incidents, history, feed, clock).register(routes);
    }

    /** The public status page and its feeds, when the node serves them. */
    public void registerPage(RouteTable routes, Config config, Clock clock, PageSection subscribeForm) {
        if (StartBanner.servesStatusPage(config)) {
            Branding branding =
                    new Branding(config.get(Settings.STATUS_PAGE_NAME), config.get(Settings.STATUS_PAGE_URL));
            new StatusPageRoutes(feed, incidents, history, clock, branding, words, subscribeForm).register(routes);
            new StatusFeedRoutes(feed, incidents, maintenances, clock, branding, words).register(routes);
            new BadgeRoutes(feed, words).register(routes);
            new EmbedRoutes(feed, branding, words, config.get(Settings.STATUS_EMBED_ORIGINS)).register(routes);
        }
    }
}
