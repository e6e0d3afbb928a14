package dev.pulseledger.app;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanPeriod;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.keys.ApiKey;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.keys.Secrets;
import dev.pulseledger.ledger.core.OpenResult;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Ids;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code serve --demo}: makes sure a demo plan, account and services exist, and issues a fresh
 * demo caller key on every start so a newcomer can curl at once.
 */
final class DemoSeed {
    static final String DEMO_PLAN = "demo";

    private DemoSeed() {}

    static void seed(
            PlanStore plans,
            AccountStore accounts,
            LedgerWriter ledger,
            KeyStore keys,
            ServiceStore services,
            Clock clock,
            PrintStream console) {
        Instant now = clock.instant();
        if (plans.find(DEMO_PLAN).isEmpty()) {
            plans.create(new Plan(
                    DEMO_PLAN,
                    "Demo",
                    "The plan of the demo account.",
                    100_000L,
                    PlanPeriod.MONTH,
                    0,
                    Optional.empty(),
                    now,
                    now));
            seedServices(services, now);
        }
        Account account = accounts.list("", 100).items().stream()
                .filter(a -> a.planId().equals(DEMO_PLAN))
                .findFirst()
                .orElseGet(() -> opened(ledger.open(
                        new Account(Ids.account(), "Demo account", DEMO_PLAN, 10_000, AccountStatus.ACTIVE, now))));
        String secret = Secrets.newCallerKey();
        keys.create(
                new ApiKey(
                        Ids.key(),
                        account.id(),
                        "demo",
                        Secrets.displayPrefix(secret),
                        now,
                        Optional.empty(),
                        Optional.empty()),
                Secrets.sha256Hex(secret));
        console.println();
        console.println("  Demo data is ready. A caller key for account " + account.id() + ":");
        console.println();
        console.println("    " + secret);
        console.println();
        console.println("  Try: curl -H 'X-ApiKey: " + secret + "' http://localhost:<port>/api/pulse");
        console.println();
    }

    private static void seedServices(ServiceStore services, Instant now) {
        List.of(
                        new Service(
                                "api",
                                "Public API",
                                "The REST API.",
                                ServiceStatus.OPERATIONAL,
                                true,
                                1,
                                true,
                                now,
                                Optional.empty()),
                        new Service(
                                "dashboard",
                                "Dashboard",
                                "The web console.",
                                ServiceStatus.OPERATIONAL,
                                true,
                                2,
                                true,
                                now,
                                Optional.empty()),
                        new Service(
                                "webhooks",
                                "Webhooks",
                                "Event delivery.",
                                ServiceStatus.DEGRADED_PERFORMANCE,
                                false,
                                1,
                                true,
                                now,
                                Optional.empty()),
                        new Service(
                                "docs",
                                "Documentation",
                                "Guides and reference.",
                                ServiceStatus.OPERATIONAL,
                                false,
                                2,
                                true,
                                now,
                                Optional.empty()),
                        new Service(
                                "billing",
                                "Billing internals",
                                "Not listed publicly.",
                                ServiceStatus.OPERATIONAL,
                                false,
                                3,
                                false,
                                now,
                                Optional.empty()))
                .forEach(services::put);
    }

    private static Account opened(OpenResult result) {
        if (result instanceof OpenResult.Opened opened) {
            return opened.account();
        }
        throw new IllegalStateException("The demo plan vanished while seeding");
    }
}
