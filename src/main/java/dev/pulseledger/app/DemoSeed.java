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
import dev.pulseledger.status.incidents.IncidentImpact;
import dev.pulseledger.status.incidents.IncidentStatus;
import dev.pulseledger.status.incidents.IncidentStore;
import dev.pulseledger.status.incidents.MaintenanceStore;
import dev.pulseledger.status.services.Service;
import dev.pulseledger.status.services.ServiceStatus;
import dev.pulseledger.status.services.ServiceStore;
import dev.pulseledger.store.Ids;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code serve --demo}: makes sure a demo plan, account and services exist (with an incident and a
 * maintenance window for the status page), and issues a fresh demo caller key on every start so a
 * newcomer can curl at once; {@link StartBanner} shows it.
 */
final class DemoSeed {
    static final String DEMO_PLAN = "demo";
    static final String DEMO_INCIDENT = "Webhook deliveries delayed";
    static final String DEMO_MAINTENANCE = "Database upgrade";

    /** The demo account and the caller key issued for it on this start (shown once, on the console). */
    record Seeded(String accountId, String callerKey) {}

    private final AccessModule access;
    private final LedgerWriter ledger;
    private final StatusModule status;
    private final Clock clock;
    /** Set by {@link #run} on the starting thread, read by the start banner after it on the same thread. */
    private Optional<Seeded> seeded = Optional.empty();

    DemoSeed(AccessModule access, LedgerWriter ledger, StatusModule status, Clock clock) {
        this.access = access;
        this.ledger = ledger;
        this.status = status;
        this.clock = clock;
    }

    /** The caller key issued on this start, once {@link #run} has run. */
    Optional<Seeded> seeded() {
        return seeded;
    }

    void run() {
        seeded = Optional.of(seed(access.plans(), access.accounts(), access.keys(), status.services()));
    }

    private Seeded seed(PlanStore plans, AccountStore accounts, KeyStore keys, ServiceStore services) {
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
                    Optional.empty(),
                    now,
                    now,
                    Map.of()));
            seedServices(services, now);
            seedStatusPage(status.incidents(), status.maintenances(), now);
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
                Secrets.sha256Hex(secret),
                List.of());
        return new Seeded(account.id(), secret);
    }

    /** An incident being fixed on the degraded webhooks, and a maintenance window tomorrow. */
    private static void seedStatusPage(IncidentStore incidents, MaintenanceStore maintenances, Instant now) {
        incidents.create(
                DEMO_INCIDENT,
                IncidentImpact.MINOR,
                new IncidentStore.Change(
                        IncidentStatus.IDENTIFIED,
                        "Deliveries run a few minutes late; a fix is being rolled out.",
                        new TreeMap<>(Map.of("webhooks", ServiceStatus.DEGRADED_PERFORMANCE)),
                        now));
        Instant start = now.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofDays(1));
        maintenances.create(
                DEMO_MAINTENANCE,
                "The API may answer slowly for up to an hour.",
                new TreeSet<>(Set.of("api")),
                start,
                start.plus(Duration.ofHours(1)),
                now);
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
