package dev.pulseledger.console;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.KeyIssuer;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.HttpsRequests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.read.BalanceReader;
import dev.pulseledger.ledger.read.CreditGrants;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.ledger.read.ReservationQueries;
import dev.pulseledger.ledger.read.SlaMeter;
import dev.pulseledger.ledger.read.SlaReports;
import dev.pulseledger.ledger.read.SpendingQueries;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.operators.AuditLog;
import dev.pulseledger.operators.Credentials;
import dev.pulseledger.operators.OperatorDirectory;
import dev.pulseledger.operators.SignInLimiter;
import dev.pulseledger.status.groups.ServiceGroupStore;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.status.subscribers.SubscriberDirectory;
import dev.pulseledger.status.subscribers.SubscriberStore;
import dev.pulseledger.status.upstream.UpstreamStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.webhooks.WebhookStore;
import java.time.Clock;

/**
 * The operator console at {@code /console}: server-rendered pages over the same stores the operator
 * API uses. Its gate ({@link ConsoleGuard}) is installed in the route table before any page, so every
 * console route but sign-in and the assets needs a signed-in session.
 */
public final class ConsoleRoutes {
    /** The stores and services the console works on, as the operator API has them. */
    public record Stores(
            Database database,
            AccountStore accounts,
            PlanStore plans,
            KeyStore keys,
            LedgerWriter ledger,
            BalanceReader balances,
            ServiceStore services,
            PulseFeed feed,
            IncidentStore incidents,
            MaintenanceStore maintenances,
            WebhookStore webhooks) {}

    private final Stores stores;
    private final Authenticator authenticator;
    private final HttpsRequests https;
    private final Clock clock;

    /** Who operators are and what they sign in with, and where their changes are recorded. */
    public record Operators(
            OperatorDirectory directory,
            AuditLog audit,
            Credentials credentials,
            SignInLimiter limiter,
            ClientAddresses clients) {}

    private final Operators operators;

    public ConsoleRoutes(
            Stores stores, Operators operators, Authenticator authenticator, HttpsRequests https, Clock clock) {
        this.stores = stores;
        this.operators = operators;
        this.authenticator = authenticator;
        this.https = https;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        ConsoleView view = new ConsoleView();
        ConsoleSessions sessions = new ConsoleSessions(stores.database(), clock);
        ConsoleGuard guard = new ConsoleGuard(sessions, operators.directory(), operators.audit(), view, https);
        routes.consoleGate(guard, ConsoleGuard.OPEN);
        new ConsoleAssets().register(routes);
        new SignInPages(
                        authenticator,
                        operators.credentials(),
                        operators.limiter(),
                        operators.clients(),
                        sessions,
                        guard,
                        view)
                .register(routes);
        new AuditPages(operators.audit(), view).register(routes, guard);
        new DashboardPage(new DashboardQueries(stores.database()), stores.services(), view, clock)
                .register(routes, guard);
        new AccountListPages(
                        stores.accounts(),
                        new AccountSearch(stores.database()),
                        stores.plans(),
                        stores.ledger(),
                        view,
                        clock)
                .register(routes, guard);
        AccountPages accountPages = new AccountPages(
                stores.accounts(),
                stores.plans(),
                stores.keys(),
                stores.ledger(),
                stores.balances(),
                new SpendingQueries(stores.database()),
                new ReservationQueries(stores.database()),
                new CreditGrants(stores.database()),
                authenticator,
                new LedgerHistory(stores.database()),
                clock,
                view);
        accountPages.register(routes, guard);
        new KeyPages(
                        new KeyIssuer(stores.keys(), stores.accounts()),
                        stores.keys(),
                        authenticator,
                        accountPages,
                        view,
                        clock)
                .register(routes, guard);
        new ServicePages(
                        stores.services(),
                        new ServiceGroupStore(stores.database()),
                        new UpstreamStore(stores.database()),
                        stores.feed(),
                        view,
                        clock)
                .register(routes, guard);
        new PlanPages(
                        stores.plans(),
                        new SlaReports(
                                stores.database(),
                                new SlaMeter(stores.database(), new StatusHistory(stores.database()))),
                        view,
                        clock)
                .register(routes, guard);
        new WebhookPages(stores.webhooks(), view, clock).register(routes, guard);
        new StatusSubscriberPages(
                        new SubscriberDirectory(stores.database(), stores.webhooks()),
                        new SubscriberStore(stores.database()),
                        view)
                .register(routes, guard);
        new IncidentPages(stores.incidents(), stores.services(), stores.feed(), view, clock).register(routes, guard);
        new MaintenancePages(stores.maintenances(), stores.services(), stores.feed(), view, clock)
                .register(routes, guard);
    }
}
