package dev.pulseledger.admin;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStatus;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.LedgerEntry;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.PageBody;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.ledger.core.CreditResult;
import dev.pulseledger.ledger.core.LedgerCore;
import dev.pulseledger.ledger.core.OpenResult;
import dev.pulseledger.ledger.core.PlanChangeResult;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.web.LedgerProblems;
import dev.pulseledger.ledger.web.PoolParams;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.store.Ids;
import dev.pulseledger.store.Page;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** Operator API for accounts: create, read, list, plan, status, credits and ledger. */
public final class AccountAdminRoutes {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "planId", "balance");
    private static final Set<String> PLAN_FIELDS = Set.of("planId");
    private static final Set<String> STATUS_FIELDS = Set.of("status");
    private static final Set<String> CREDIT_FIELDS = Set.of("amount", "reason", "expiresAt", "pool");
    /** The most tokens one grant may add. */
    public static final long MAX_CREDIT = 1_000_000_000_000L;

    private final Authenticator authenticator;
    private final AccountStore accounts;
    private final LedgerWriter ledger;
    private final Clock clock;

    public AccountAdminRoutes(Authenticator authenticator, AccountStore accounts, LedgerWriter ledger, Clock clock) {
        this.authenticator = authenticator;
        this.accounts = accounts;
        this.ledger = ledger;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/accounts", this::create)
                .get("/admin/accounts", this::list)
                .get("/admin/accounts/{accountId}", this::get)
                .put("/admin/accounts/{accountId}/plan", this::changePlan)
                .put("/admin/accounts/{accountId}/status", this::changeStatus)
                .post("/admin/accounts/{accountId}/credits", this::credit)
                .get("/admin/accounts/{accountId}/ledger", this::ledger);
    }

    private void create(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREATE_FIELDS);
        String name = body.requiredNonBlank("name", 200);
        String planId = body.has("planId") ? body.requiredSlug("planId") : "free";
        long balance = body.optionalLong("balance", 0, LedgerCore.MAX_BALANCE).orElse(0L);
        Account account = new Account(Ids.account(), name, planId, balance, AccountStatus.ACTIVE, clock.instant());
        switch (Queued.call(() -> ledger.open(account))) {
            case OpenResult.Opened opened -> {
                res.header(
                        Responses.LOCATION,
                        "/admin/accounts/" + opened.account().id());
                Responses.json(res, 201, AccountJson.account(opened.account()));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void list(ServerRequest req, ServerResponse res) {
        int limit = Requests.pageSize(req);
        String after = Cursors.position(Requests.query(req, "cursor")).orElse("");
        Responses.ok(res, PageBody.of(accounts.list(after, limit), AccountJson::account));
    }

    /** The account with its current period; a renewal or expiry that is due happens first. */
    private void get(ServerRequest req, ServerResponse res) {
        Account account = existing(req);
        if (Queued.call(() -> ledger.catchUpIfDue(account.id(), account.dueAt()))) {
            Responses.ok(res, AccountJson.account(existing(req)));
            return;
        }
        Responses.ok(res, AccountJson.account(account));
    }

    /** A new period starts at once on the new plan (CONTRACT §7); the same plan again changes nothing. */
    private void changePlan(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), PLAN_FIELDS);
        String planId = body.requiredSlug("planId");
        switch (Queued.call(() -> ledger.changePlan(Requests.pathParam(req, "accountId"), planId))) {
            case PlanChangeResult.Changed changed -> {
                authenticator.catchUp(); // the plan sets the keys' rate limit
                Responses.ok(res, AccountJson.account(existing(req)));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void changeStatus(ServerRequest req, ServerResponse res) {
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), STATUS_FIELDS);
        String text = body.requiredString("status", 20);
        AccountStatus status = switch (text) {
            case "active" -> AccountStatus.ACTIVE;
            case "suspended" -> AccountStatus.SUSPENDED;
            default -> throw ProblemException.invalidField("status", "must be active or suspended");
        };
        if (!accounts.changeStatus(Requests.pathParam(req, "accountId"), status)) {
            throw LedgerProblems.accountNotFound();
        }
        authenticator.catchUp();
        Responses.ok(res, AccountJson.account(existing(req)));
    }

    private void credit(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), CREDIT_FIELDS);
        long amount = body.requiredLong("amount", 1, MAX_CREDIT);
        String reason = body.optionalString("reason", 500).orElse("");
        Optional<Instant> expiresAt = body.optionalInstant("expiresAt");
        String pool = body.optionalString("pool", PoolParams.MAX_TEXT)
                .map(PoolParams::checked)
                .orElse(Pools.DEFAULT);
        switch (Queued.call(() -> ledger.credit(accountId, pool, amount, reason, expiresAt))) {
            case CreditResult.Credited credited -> {
                Responses.json(
                        res,
                        201,
                        new AccountJson.CreditBody(
                                accountId,
                                amount,
                                reason,
                                expiresAt.map(Times::format).orElse(null),
                                credited.balance(),
                                Times.format(credited.at())));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    private void ledger(ServerRequest req, ServerResponse res) {
        Account account = existing(req);
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<LedgerEntry> page = accounts.ledger(account.id(), before, limit);
        Responses.ok(res, PageBody.of(page, AccountJson::ledgerEntry));
    }

    private Account existing(ServerRequest req) {
        return accounts.find(Requests.pathParam(req, "accountId")).orElseThrow(LedgerProblems::accountNotFound);
    }
}
