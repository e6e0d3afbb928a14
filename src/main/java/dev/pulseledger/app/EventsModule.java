package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.EventSettings;
import dev.pulseledger.config.Settings;
import dev.pulseledger.events.AccountStreamRoutes;
import dev.pulseledger.events.EventFeed;
import dev.pulseledger.events.EventStreams;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.events.PulseStreamRoutes;
import dev.pulseledger.http.Access;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.outbound.ReachableAddresses;
import dev.pulseledger.webhooks.DeliveryWorker;
import dev.pulseledger.webhooks.WebhookAdminRoutes;
import dev.pulseledger.webhooks.WebhookStore;
import dev.pulseledger.webhooks.WebhookUrls;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;

/** The outbox every change writes its event to, the feed that reads it, the webhook worker and the event streams. */
public record EventsModule(
        WebhookStore webhooks, Outbox outbox, EventFeed feed, EventSettings settings, WebhookUrls webhookUrls) {

    public static EventsModule build(
            Config config, DatabaseModule db, Clock clock, PrometheusMeterRegistry metrics, StartedParts parts) {
        EventSettings settings = config.events();
        WebhookStore webhooks = new WebhookStore(db.main());
        WebhookUrls urls = new WebhookUrls(new ReachableAddresses(config.get(Settings.WEBHOOK_ALLOW_PRIVATE)));
        Outbox outbox = new Outbox(db.main(), webhooks::enqueue);
        EventFeed feed = parts.add("event feed", EventFeed.atEnd(outbox, settings.pollInterval()));
        parts.startLater("event feed", feed::start);
        // The worker's HTTP client owns a selector thread from its creation, which only a started worker's close
        // ends reliably, so the worker is made and started in one step.
        DeliveryWorker.Settings delivery = new DeliveryWorker.Settings(
                settings.pollInterval(),
                settings.webhookMaxAttempts(),
                settings.webhookRetryBase(),
                settings.webhookTimeout());
        parts.startLater(
                "webhook worker",
                () -> parts.add(
                        "webhook worker",
                        DeliveryWorker.create(webhooks, outbox, delivery, urls, clock, new SecureRandom(), metrics)
                                .start()));
        return new EventsModule(webhooks, outbox, feed, settings, urls);
    }

    /** The two event streams, pulse and an account's ledger. */
    public void registerStreams(
            RouteTable routes, Config config, Access access, LedgerHistory history, PrometheusMeterRegistry metrics) {
        EventStreams streams = new EventStreams(
                access,
                feed,
                settings.heartbeatInterval(),
                config.serverLimits().maxConcurrentRequests() / 2,
                metrics);
        new PulseStreamRoutes(streams).register(routes);
        new AccountStreamRoutes(
                        streams,
                        accountId -> history.latest(accountId)
                                .map(head ->
                                        new AccountStreamRoutes.NewestLine(head.sequence(), head.balance(), head.at())))
                .register(routes);
    }

    public void registerAdmin(RouteTable routes, Clock clock) {
        new WebhookAdminRoutes(webhooks, webhookUrls, clock).register(routes);
    }

    /** Ends the open event streams when the node stops, before the server does, so that they do not hold it up. */
    public void endStreamsBeforeTheServer(StartedParts parts) {
        parts.add("open event streams", feed, feed::close);
    }
}
