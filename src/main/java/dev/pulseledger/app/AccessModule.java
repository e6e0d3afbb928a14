package dev.pulseledger.app;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.admin.KeyAdminRoutes;
import dev.pulseledger.admin.PlanAdminRoutes;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.http.Access;
import dev.pulseledger.http.ClientAddresses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.AccessChangeLog;
import dev.pulseledger.keys.AccessFeed;
import dev.pulseledger.keys.AdminKeys;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyDirectory;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ratelimit.FailedAuthLimiter;
import dev.pulseledger.ratelimit.PlanRateLimits;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.util.function.BiPredicate;

/** Plans, accounts and keys, and who a request's caller is: the admin keys, the key directory and its feed. */
public record AccessModule(
        AccessChangeLog changes,
        PlanStore plans,
        AccountStore accounts,
        KeyStore keys,
        AdminKeys.InForce adminKeys,
        Authenticator authenticator,
        PlanRateLimits planLimits,
        Access access,
        OperatorsModule operators) {

    public static AccessModule build(
            Config config,
            DatabaseModule db,
            Clock clock,
            PrintStream console,
            PrometheusMeterRegistry metrics,
            StartedParts parts) {
        AccessChangeLog changes = new AccessChangeLog(db.main(), db.lookups(), clock);
        PlanStore plans = new PlanStore(db.main(), changes);
        AccountStore accounts = new AccountStore(db.main(), changes);
        KeyStore keys = new KeyStore(db.main(), db.lookups(), changes);
        AdminKeys.InForce adminKeys = AdminKeys.accepted(config.get(Settings.ADMIN_KEY), keys, clock, console);
        AccessFeed feed = AccessFeed.from(changes, AccessFeed.POLL_INTERVAL);
        KeyDirectory directory = KeyDirectory.load(keys, feed);
        countAuthenticationReads(metrics, directory, feed);
        ClientAddresses clients = new ClientAddresses(config.get(Settings.TRUSTED_PROXIES));
        OperatorsModule operators =
                OperatorsModule.build(db, changes, feed, adminKeys.configuredHash(), clients, clock);
        Authenticator authenticator = new Authenticator(directory, clock, operators.directory());
        PlanRateLimits planLimits = new PlanRateLimits(plans, feed);
        parts.add("access feed", feed);
        parts.startLater("access feed", feed::start);
        Access access = new Access(
                authenticator, clients, new FailedAuthLimiter(config.get(Settings.AUTH_FAILURES_PER_MINUTE)));
        return new AccessModule(
                changes, plans, accounts, keys, adminKeys, authenticator, planLimits, access, operators);
    }

    /**
     * The admin routes of plans, keys and operators; {@code hasPool} tells whether an account has a pool, for
     * the pools that keys' budgets name.
     */
    public void register(RouteTable routes, BiPredicate<String, String> hasPool, Clock clock) {
        new PlanAdminRoutes(plans, clock).register(routes);
        new KeyAdminRoutes(authenticator, keys, accounts, hasPool, clock).register(routes);
        operators.register(routes, authenticator, clock);
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
}
