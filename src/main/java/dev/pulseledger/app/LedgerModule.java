package dev.pulseledger.app;

import dev.pulseledger.accounts.LowBalanceThresholds;
import dev.pulseledger.admin.AccountAdminRoutes;
import dev.pulseledger.admin.LowBalanceAdminRoutes;
import dev.pulseledger.admin.PlanChangeRoutes;
import dev.pulseledger.admin.ReservationAdminRoutes;
import dev.pulseledger.config.Config;
import dev.pulseledger.config.Settings;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.http.Json;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.ledger.db.LedgerStore;
import dev.pulseledger.ledger.read.BalanceReader;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.ledger.read.ReservationQueries;
import dev.pulseledger.ledger.read.SlaMeter;
import dev.pulseledger.ledger.read.SlaReports;
import dev.pulseledger.ledger.read.SpendingQueries;
import dev.pulseledger.ledger.web.KeyRoutes;
import dev.pulseledger.ledger.web.ReservationRoutes;
import dev.pulseledger.ledger.web.SlaRoutes;
import dev.pulseledger.ledger.web.TokenJson;
import dev.pulseledger.ledger.web.TokenRoutes;
import dev.pulseledger.ledger.web.UsageRoutes;
import dev.pulseledger.ledger.write.BusyAccountLanes;
import dev.pulseledger.ledger.write.IdempotencyCleaner;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.ledger.write.Renewals;
import dev.pulseledger.ledger.write.SlaCredits;
import dev.pulseledger.status.history.StatusHistory;
import dev.pulseledger.store.MicroBatcher;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Clock;
import java.time.Duration;

/** The ledger: its writer and the workers that write through it, the balance and history reads, and their routes. */
public record LedgerModule(
        DatabaseModule db,
        LedgerWriter writer,
        BalanceReader balances,
        ReservationQueries reservations,
        LedgerHistory history) {
    private static final Duration MAX_SPEND_WAIT = Duration.ofSeconds(30);

    public static LedgerModule build(
            Config config,
            DatabaseModule db,
            Outbox outbox,
            AccessModule access,
            Clock clock,
            PrometheusMeterRegistry metrics,
            StartedParts parts) {
        // The writer's thread runs from its construction: the demo seed spends through it.
        LedgerWriter writer = parts.add(
                "ledger writer",
                new LedgerWriter(
                        LedgerStore.forDatabase(db.main(), outbox, access.changes()),
                        clock,
                        new MicroBatcher.Limits(
                                config.get(Settings.SPEND_QUEUE_LENGTH),
                                config.get(Settings.SPEND_BATCH_SIZE),
                                MAX_SPEND_WAIT),
                        new BusyAccountLanes.Limits(
                                config.get(Settings.ACCOUNT_LOCK_WAIT), DatabaseModule.busyAccountConnections(config)),
                        metrics));
        Renewals renewals = parts.add("renewals", new Renewals(db.main(), writer, clock, Renewals.DEFAULT_LIMITS));
        parts.startLater("renewals", renewals::start);
        SlaCredits slaCredits = parts.add(
                "sla credits", new SlaCredits(db.main(), writer, slaMeter(db), metrics, SlaCredits.DEFAULT_LIMITS));
        parts.startLater("sla credits", slaCredits::start);
        IdempotencyCleaner idempotencyCleaner = parts.add(
                "idempotency cleaner",
                new IdempotencyCleaner(
                        db.main(),
                        clock,
                        config.get(Settings.IDEMPOTENCY_RETENTION),
                        IdempotencyCleaner.DEFAULT_LIMITS));
        parts.startLater("idempotency cleaner", idempotencyCleaner::start);
        BalanceReader balances = parts.add(
                "balance reader",
                new BalanceReader(
                        db.main(),
                        config.get(Settings.DB_STATEMENT_TIMEOUT),
                        view -> Json.bytes(TokenJson.balance(view))));
        ReservationQueries reservations = new ReservationQueries(db.main());
        Gauge.builder("pulseledger.reservations.held.tokens", reservations, ReservationQueries::heldTokens)
                .description("Tokens held by live reservations, on every account and node")
                .register(metrics);
        return new LedgerModule(db, writer, balances, reservations, new LedgerHistory(db.main()));
    }

    private static SlaMeter slaMeter(DatabaseModule db) {
        return new SlaMeter(db.main(), new StatusHistory(db.main()));
    }

    private SlaRoutes slaRoutes(AccessModule access, Clock clock) {
        return new SlaRoutes(access.accounts(), access.plans(), writer, new SlaReports(db.main(), slaMeter(db)), clock);
    }

    /** The callers' routes: spending, reservations and usage. */
    public void registerApi(RouteTable routes, AccessModule access, PrometheusMeterRegistry metrics, Clock clock) {
        new TokenRoutes(
                        writer,
                        balances,
                        new SpendingQueries(db.main()),
                        access.accounts(),
                        access.plans(),
                        metrics,
                        history,
                        clock)
                .register(routes);
        new ReservationRoutes(writer, reservations).register(routes);
        new UsageRoutes(history, access.keys(), access.accounts(), clock).register(routes);
        new KeyRoutes(access.keys(), history, clock).register(routes);
        slaRoutes(access, clock).registerApi(routes);
    }

    /** The admin routes that change an account's balance or hold. */
    public void registerAdmin(RouteTable routes, AccessModule access, Clock clock) {
        new AccountAdminRoutes(access.authenticator(), access.accounts(), writer, clock).register(routes);
        new PlanChangeRoutes(access.authenticator(), writer).register(routes);
        new ReservationAdminRoutes(access.accounts(), writer, reservations).register(routes);
        slaRoutes(access, clock).registerAdmin(routes);
        new UsageRoutes(history, access.keys(), access.accounts(), clock).registerAdmin(routes);
    }

    public void registerLowBalanceAdmin(RouteTable routes) {
        new LowBalanceAdminRoutes(new LowBalanceThresholds(db.main())).register(routes);
    }
}
