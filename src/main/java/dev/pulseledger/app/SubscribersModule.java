package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.MailSettings;
import dev.pulseledger.config.Settings;
import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.status.incidents.NoticeSink;
import dev.pulseledger.status.page.Branding;
import dev.pulseledger.status.page.PageSection;
import dev.pulseledger.status.subscribers.MailWorker;
import dev.pulseledger.status.subscribers.NoticeLog;
import dev.pulseledger.status.subscribers.SubscribeRoutes;
import dev.pulseledger.status.subscribers.SubscriberAdminRoutes;
import dev.pulseledger.status.subscribers.SubscriberDirectory;
import dev.pulseledger.status.subscribers.SubscriberStore;
import dev.pulseledger.webhooks.WebhookUrls;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;

/**
 * Status subscribers (CONTRACT §15): the notice log every incident and maintenance change writes to,
 * the subscriber store, and, when a mail server is set, the mail worker and the public subscribe pages.
 */
public record SubscribersModule(
        NoticeLog notices, SubscriberStore subscribers, SubscriberDirectory directory, Optional<MailSettings> mail) {

    public static SubscribersModule build(
            Config config,
            DatabaseModule db,
            EventsModule events,
            Clock clock,
            PrometheusMeterRegistry metrics,
            StartedParts parts) {
        NoticeLog notices = new NoticeLog(events.outbox(), events.webhooks());
        SubscriberStore subscribers = new SubscriberStore(db.main());
        Optional<MailSettings> mail = config.mail();
        if (mail.isPresent()) {
            MailWorker.Settings settings = new MailWorker.Settings(
                    events.settings().pollInterval(),
                    events.settings().webhookRetryBase(),
                    events.settings().webhookTimeout());
            parts.startLater(
                    "status mail worker",
                    () -> parts.add(
                            "status mail worker",
                            MailWorker.create(
                                            db.main(),
                                            subscribers,
                                            mail.get(),
                                            config.get(Settings.STATUS_PAGE_NAME),
                                            Messages.of("status", config.get(Settings.STATUS_LANGUAGE)),
                                            settings,
                                            clock,
                                            new SecureRandom(),
                                            metrics)
                                    .start()));
        }
        return new SubscribersModule(notices, subscribers, new SubscriberDirectory(db.main(), events.webhooks()), mail);
    }

    /** Where incident and maintenance stores hand their notices. */
    public NoticeSink sink() {
        return notices;
    }

    public void registerAdmin(RouteTable routes, StatusModule status, WebhookUrls webhookUrls, Clock clock) {
        new SubscriberAdminRoutes(directory, subscribers, status.services(), webhookUrls, clock).register(routes);
    }

    /**
     * The public subscribe endpoint and the pages behind mail links, when the page is served and mail is
     * configured; returns the form the status page shows (none otherwise).
     */
    public PageSection registerPublic(RouteTable routes, Config config, StatusModule status, Clock clock) {
        if (mail.isEmpty() || !StartBanner.servesStatusPage(config)) {
            return PageSection.NONE;
        }
        Branding branding = new Branding(config.get(Settings.STATUS_PAGE_NAME), config.get(Settings.STATUS_PAGE_URL));
        SubscribeRoutes subscribing = new SubscribeRoutes(
                subscribers,
                status.feed(),
                new ClientAddresses(config.get(Settings.TRUSTED_PROXIES)),
                clock,
                status.words(),
                branding.title(status.words()));
        subscribing.register(routes);
        return subscribing::formSection;
    }
}
