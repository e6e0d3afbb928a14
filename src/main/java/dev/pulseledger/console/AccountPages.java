package dev.pulseledger.console;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.LedgerEntry;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.admin.AccountAdminRoutes;
import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.core.BudgetWindow;
import dev.pulseledger.ledger.core.CancelPlanChangeResult;
import dev.pulseledger.ledger.core.CreditResult;
import dev.pulseledger.ledger.core.InPeriodChangeResult;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.PlanChangeResult;
import dev.pulseledger.ledger.core.PlanChangeTiming;
import dev.pulseledger.ledger.core.Reservation;
import dev.pulseledger.ledger.core.ReservationStatus;
import dev.pulseledger.ledger.core.RevokeResult;
import dev.pulseledger.ledger.read.BalanceReader;
import dev.pulseledger.ledger.read.BalanceView;
import dev.pulseledger.ledger.read.CreditGrants;
import dev.pulseledger.ledger.read.Granularity;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.ledger.read.ReservationQueries;
import dev.pulseledger.ledger.read.SpendingQueries;
import dev.pulseledger.ledger.read.UsageReport;
import dev.pulseledger.ledger.read.UsageWindow;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One account's page: balance, plan, ledger, spendings, reservations and keys; granting, plan changes (a
 * new period, or within the period: now or at its end), credit grants (SLA credits too) with their revoke,
 * and suspension.
 */
final class AccountPages {
    static final int LEDGER_PAGE_SIZE = 20;
    private static final int SPENDINGS_SHOWN = 20;
    static final int RESERVATIONS_PAGE_SIZE = 20;
    private static final Map<String, String> DONE = Map.of(
            "created", "Account created.",
            "credited", "Credits granted.",
            "plan", "Plan changed.",
            "plan-now", "Plan changed: the old allowance's remainder expired, the new one is prorated.",
            "plan-period-end", "Plan change scheduled for the end of the period.",
            "plan-cancelled", "The waiting plan change is cancelled.",
            "grant-revoked", "What was left of the credit grant was taken back.",
            "suspended", "Account suspended: its keys are refused until it is reactivated.",
            "active", "Account reactivated.",
            "revoked", "Key revoked: the API refuses it within seconds on every node.");

    private static final DateTimeFormatter DAY =
            DateTimeFormatter.ofPattern("MMM d", Locale.ENGLISH).withZone(ZoneOffset.UTC);

    private final AccountStore accounts;
    private final PlanStore plans;
    private final KeyStore keys;
    private final LedgerWriter ledger;
    private final BalanceReader balances;
    private final SpendingQueries spendings;
    private final ReservationQueries reservations;
    private final CreditGrants creditGrants;
    private final Authenticator authenticator;
    private final LedgerHistory history;
    private final Clock clock;
    private final ConsoleView view;

    AccountPages(
            AccountStore accounts,
            PlanStore plans,
            KeyStore keys,
            LedgerWriter ledger,
            BalanceReader balances,
            SpendingQueries spendings,
            ReservationQueries reservations,
            CreditGrants creditGrants,
            Authenticator authenticator,
            LedgerHistory history,
            Clock clock,
            ConsoleView view) {
        this.accounts = accounts;
        this.plans = plans;
        this.keys = keys;
        this.ledger = ledger;
        this.balances = balances;
        this.spendings = spendings;
        this.reservations = reservations;
        this.creditGrants = creditGrants;
        this.authenticator = authenticator;
        this.history = history;
        this.clock = clock;
        this.view = view;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.get("/console/accounts/{accountId}", guard.page(this::detail))
                .post("/console/accounts/{accountId}/credits", guard.change(this::grant))
                .post("/console/accounts/{accountId}/plan", guard.change(this::changePlan))
                .post("/console/accounts/{accountId}/plan-change", guard.change(this::changePlanInPeriod))
                .post("/console/accounts/{accountId}/grants/{grantId}/revoke", guard.change(this::revokeGrant))
                .post("/console/accounts/{accountId}/status", guard.change(this::changeStatus));
    }

    private void detail(ServerRequest req, ServerResponse res, Session session) {
        long ledgerBefore = Requests.query(req, "ledgerBefore")
                .flatMap(AccountPages::sequence)
                .orElse(Long.MAX_VALUE);
        String done = Requests.query(req, "done").map(DONE::get).orElse("");
        show(
                res,
                session,
                Requests.pathParam(req, "accountId"),
                200,
                Form.empty(),
                "",
                new Pages(ledgerBefore, ReservationFilter.from(req)),
                done);
    }

    /** Where the page's two paged lists start: the ledger's and the reservations'. */
    private record Pages(long ledgerBefore, ReservationFilter reservations) {
        static final Pages NEWEST = new Pages(Long.MAX_VALUE, ReservationFilter.ALL_NEWEST);
    }

    /** The reservations list's status filter (empty: every status) and where its page starts. */
    private record ReservationFilter(Optional<ReservationStatus> status, long before) {
        static final ReservationFilter ALL_NEWEST = new ReservationFilter(Optional.empty(), Long.MAX_VALUE);

        static ReservationFilter from(ServerRequest req) {
            return new ReservationFilter(
                    Requests.query(req, "reservationStatus").flatMap(ReservationStatus::fromWire),
                    Requests.query(req, "reservationsBefore")
                            .flatMap(AccountPages::sequence)
                            .orElse(Long.MAX_VALUE));
        }
    }

    private void grant(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        Optional<Long> amount = form.wholeNumber("amount", 1, AccountAdminRoutes.MAX_CREDIT, true);
        Optional<String> reason = form.text("reason", 500, false);
        if (form.valid()) {
            long tokens = amount.orElseThrow();
            switch (Queued.call(
                    () -> ledger.credit(accountId, Pools.DEFAULT, tokens, reason.orElse(""), Optional.empty()))) {
                case CreditResult.Credited credited -> {
                    ConsoleGuard.redirect(res, path(accountId) + "?done=credited");
                    return;
                }
                case CreditResult.AccountNotFound notFound -> {
                    view.notFound(res, session);
                    return;
                }
                case CreditResult.BalanceLimitReached limit ->
                    form.error("amount", "An account may hold at most " + LedgerCore.MAX_BALANCE + " tokens.");
                case CreditResult.ExpiryNotInFuture past -> throw new IllegalStateException("No expiry was given");
                case CreditResult.PoolLimitReached limit ->
                    throw new IllegalStateException("The default pool is no new pool");
            }
        }
        showFailed(res, session, accountId, form, "credits");
    }

    private void changePlan(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        switch (Queued.call(() -> ledger.changePlan(accountId, form.value("planId")))) {
            case PlanChangeResult.Changed changed -> {
                authenticator.catchUp(); // the plan sets the keys' rate limit
                ConsoleGuard.redirect(res, path(accountId) + "?done=plan");
            }
            case PlanChangeResult.AccountNotFound notFound -> view.notFound(res, session);
            case PlanChangeResult.UnknownPlan unknown -> {
                form.error("planId", "Choose one of the plans listed.");
                showFailed(res, session, accountId, form, "plan");
            }
        }
    }

    /**
     * A plan change within the period (CONTRACT §13): {@code when} is {@code now} or {@code period_end}, or
     * {@code cancel} (the waiting change's own button) to drop the change that waits.
     */
    private void changePlanInPeriod(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        String when = form.value("when");
        if (when.equals("cancel")) {
            switch (Queued.call(() -> ledger.cancelPlanChange(accountId))) {
                case CancelPlanChangeResult.Cancelled cancelled ->
                    ConsoleGuard.redirect(res, path(accountId) + "?done=plan-cancelled");
                case CancelPlanChangeResult.AccountNotFound notFound -> view.notFound(res, session);
                case CancelPlanChangeResult.NothingPending none -> {
                    form.error("when", "No plan change waits: it was cancelled or applied already.");
                    showFailed(res, session, accountId, form, "plan-change");
                }
            }
            return;
        }
        Optional<PlanChangeTiming> timing = PlanChangeTiming.fromWire(when);
        if (timing.isEmpty()) {
            form.error("when", "Choose now or at the end of the period.");
            showFailed(res, session, accountId, form, "plan-change");
            return;
        }
        switch (Queued.call(() -> ledger.changePlanInPeriod(accountId, form.value("changePlanId"), timing.get()))) {
            case InPeriodChangeResult.Changed changed -> {
                authenticator.catchUp(); // the plan sets the keys' rate limit
                ConsoleGuard.redirect(res, path(accountId) + "?done=plan-now");
            }
            case InPeriodChangeResult.Scheduled scheduled ->
                ConsoleGuard.redirect(res, path(accountId) + "?done=plan-period-end");
            case InPeriodChangeResult.AccountNotFound notFound -> view.notFound(res, session);
            case InPeriodChangeResult.UnknownPlan unknown ->
                refused(
                        res,
                        session,
                        accountId,
                        form,
                        "changePlanId",
                        "plan-change",
                        "Choose one of the plans listed.");
            case InPeriodChangeResult.SamePlan same ->
                refused(
                        res,
                        session,
                        accountId,
                        form,
                        "changePlanId",
                        "plan-change",
                        "The account is on this plan already.");
        }
    }

    /** Takes back what is left of one credit grant (an SLA credit or an operator's), once (CONTRACT §13). */
    private void revokeGrant(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        switch (Queued.call(() -> ledger.revokeGrant(accountId, Requests.pathParam(req, "grantId")))) {
            case RevokeResult.Revoked revoked -> ConsoleGuard.redirect(res, path(accountId) + "?done=grant-revoked");
            case RevokeResult.AccountNotFound notFound -> view.notFound(res, session);
            case RevokeResult.AlreadyRevoked already ->
                refused(res, session, accountId, form, "revoke", "revoke", "This grant was revoked already.");
            case RevokeResult.GrantNotFound missing ->
                refused(
                        res,
                        session,
                        accountId,
                        form,
                        "revoke",
                        "revoke",
                        "The account has no credit grant with this id.");
        }
    }

    /** The page again with {@code message} beside {@code field} of the form {@code formName}: 422. */
    private void refused(
            ServerResponse res,
            Session session,
            String accountId,
            Form form,
            String field,
            String formName,
            String message) {
        form.error(field, message);
        showFailed(res, session, accountId, form, formName);
    }

    private void changeStatus(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        Optional<AccountStatus> status = switch (form.value("status")) {
            case "active" -> Optional.of(AccountStatus.ACTIVE);
            case "suspended" -> Optional.of(AccountStatus.SUSPENDED);
            default -> Optional.empty();
        };
        if (status.isEmpty()) {
            form.error("status", "Choose active or suspended.");
            showFailed(res, session, accountId, form, "status");
            return;
        }
        if (!accounts.changeStatus(accountId, status.get())) {
            view.notFound(res, session);
            return;
        }
        authenticator.catchUp();
        ConsoleGuard.redirect(res, path(accountId) + "?done=" + status.get().wire());
    }

    /** The page again with the failed form's values and its errors beside their fields: 422. */
    void showFailed(ServerResponse res, Session session, String accountId, Form form, String formName) {
        show(res, session, accountId, 422, form, formName, Pages.NEWEST, "");
    }

    private void show(
            ServerResponse res,
            Session session,
            String accountId,
            int status,
            Form form,
            String formName,
            Pages pages,
            String done) {
        Optional<BalanceView> first = Queued.call(() -> balances.balance(accountId));
        // A renewal or an expiry that is due happens first: the page never shows a stale period.
        Optional<BalanceView> breakdown = first.isPresent()
                        && Queued.call(
                                () -> ledger.catchUpIfDue(accountId, first.get().dueAt()))
                ? Queued.call(() -> balances.balance(accountId))
                : first;
        Optional<Account> found = accounts.find(accountId);
        if (found.isEmpty() || breakdown.isEmpty()) {
            view.notFound(res, session);
            return;
        }
        Account account = found.get();
        Page<LedgerEntry> ledger = accounts.ledger(accountId, pages.ledgerBefore(), LEDGER_PAGE_SIZE);
        ReservationFilter filter = pages.reservations();
        Page<Reservation> held = reservations.list(accountId, filter.status(), filter.before(), RESERVATIONS_PAGE_SIZE);
        Map<String, Object> model = new HashMap<>();
        model.put("account", account);
        model.put("usage", usageChart(accountId, breakdown.get()));
        model.put("breakdown", breakdown.get());
        model.put("plan", plans.find(account.planId()).map(Plan::name).orElse(account.planId()));
        model.put("plans", plans.list());
        model.put(
                "pendingPlan",
                account.pendingChange()
                        .map(change ->
                                plans.find(change.planId()).map(Plan::name).orElse(change.planId()))
                        .orElse(""));
        model.put("ledger", ledger.items());
        model.put("ledgerNext", ledger.nextPosition().orElse(""));
        model.put("ledgerFirst", pages.ledgerBefore() == Long.MAX_VALUE);
        model.put("reservations", held.items());
        model.put("reservationsNext", held.nextPosition().orElse(""));
        model.put("reservationsFirst", filter.before() == Long.MAX_VALUE);
        model.put(
                "reservationStatus",
                filter.status().map(ReservationStatus::wire).orElse(""));
        model.put(
                "reservationStatuses",
                Arrays.stream(ReservationStatus.values())
                        .map(ReservationStatus::wire)
                        .toList());
        model.put(
                "spendings",
                spendings.list(accountId, Long.MAX_VALUE, SPENDINGS_SHOWN).items());
        model.put("keys", keys.listForAccount(accountId));
        Instant now = clock.instant();
        Map<String, List<BudgetWindow>> budgets = new HashMap<>();
        keys.budgetsOfAccount(accountId)
                .keySet()
                .forEach(keyId -> budgets.put(keyId, history.budgetWindows(keyId, now)));
        model.put("keyBudgets", budgets);
        model.put("creditGrants", creditGrants.list(accountId));
        model.put("failed", formName);
        model.put("errors", form.errors());
        model.put("values", form.values());
        model.put("done", done);
        view.render(res, status, "account", Optional.of(session), model);
    }

    static String path(String accountId) {
        return "/console/accounts/" + accountId;
    }

    /** A positive sequence number from a page link; anything else starts from the newest. */
    static Optional<Long> sequence(String text) {
        try {
            return Optional.of(Long.parseLong(text)).filter(n -> n > 0);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * What the account spent each day of its current period (of this UTC month without one): the
     * same numbers the caller reads from {@code GET /api/tokens/usage}.
     */
    private BarChart usageChart(String accountId, BalanceView breakdown) {
        Instant now = clock.instant();
        Instant from = breakdown.period().map(Period::start).orElseGet(() -> Granularity.MONTH.floor(now));
        Instant to = breakdown.period().map(Period::end).orElseGet(() -> Granularity.MONTH.next(from));
        UsageReport report = history.usage(
                accountId,
                UsageWindow.covering(from, to, Granularity.DAY)
                        .orElseGet(() -> UsageWindow.covering(Granularity.DAY.floor(now), now, Granularity.DAY)
                                .orElseThrow()));
        return BarChart.of(
                "Spent per day this period",
                "tokens",
                "this period",
                "a day",
                "Day (UTC)",
                report.buckets().stream()
                        .map(bucket -> new BarChart.Point(DAY.format(bucket.start()), bucket.spent()))
                        .toList());
    }
}
