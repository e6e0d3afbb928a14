package dev.pulseledger.app;

import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.console.ConsoleRoutes;
import dev.pulseledger.console.SpendActivity;
import dev.pulseledger.http.HttpsRequests;
import dev.pulseledger.http.RouteTable;
import java.time.Clock;

/** The operators' console: its pages, and the spend activity its dashboard charts. */
public record ConsoleModule(SpendActivity activity) {

    public static ConsoleModule build(DatabaseModule db, Clock clock, StartedParts parts) {
        SpendActivity activity = parts.add("spend activity", new SpendActivity(db.main(), clock));
        parts.startLater("spend activity", activity::start);
        return new ConsoleModule(activity);
    }

    public void register(
            RouteTable routes,
            Config config,
            AccessModule access,
            LedgerModule ledger,
            StatusModule status,
            EventsModule events,
            Clock clock) {
        new ConsoleRoutes(
                        new ConsoleRoutes.Stores(
                                ledger.db().main(),
                                access.accounts(),
                                access.plans(),
                                access.keys(),
                                ledger.writer(),
                                ledger.balances(),
                                status.services(),
                                status.feed(),
                                status.incidents(),
                                status.maintenances(),
                                events.webhooks()),
                        new ConsoleRoutes.Operators(
                                access.operators().directory(),
                                access.operators().audit(),
                                access.operators().credentials(),
                                access.operators().signInLimiter(),
                                access.operators().clients()),
                        access.authenticator(),
                        new HttpsRequests(config.get(Settings.TRUSTED_PROXIES)),
                        clock)
                .register(routes);
    }
}
