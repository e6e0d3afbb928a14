package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.Account;
import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.Plan;
import dev.pulseledger.accounts.PlanJson;
import dev.pulseledger.accounts.PlanStore;
import dev.pulseledger.http.Cursors;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Queued;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.ledger.core.Refusal;
import dev.pulseledger.ledger.core.RevertResult;
import dev.pulseledger.ledger.core.SpendRequest;
import dev.pulseledger.ledger.core.SpendResult;
import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.read.BalanceReader;
import dev.pulseledger.ledger.read.BalanceView;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.ledger.read.SpendingQueries;
import dev.pulseledger.ledger.write.LedgerWriter;
import dev.pulseledger.store.Page;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The caller's token API: spend, revert, balance, plan and spendings (CONTRACT §3). */
public final class TokenRoutes {
    static final HeaderName IDEMPOTENCY_KEY = HeaderNames.create("Idempotency-Key");
    static final HeaderName IDEMPOTENT_REPLAYED = HeaderNames.create("Idempotent-Replayed");
    private static final Pattern AMOUNT = Pattern.compile("[1-9][0-9]{0,9}");
    private static final Pattern IDEMPOTENCY_KEY_TEXT = Pattern.compile("[\\x20-\\x7E]{1,255}");
    private static final Pattern SPENDING_ID = Pattern.compile("sp_[0-9a-z]{26}");
    private static final Set<String> REVERT_FIELDS = Set.of("amount");

    private final LedgerWriter ledger;
    private final BalanceReader balances;
    private final SpendingQueries spendings;
    private final AccountStore accounts;
    private final PlanStore plans;
    private final MeterRegistry metrics;
    private final Counter reverts;
    private final LedgerHistory history;
    private final Clock clock;

    public TokenRoutes(
            LedgerWriter ledger,
            BalanceReader balances,
            SpendingQueries spendings,
            AccountStore accounts,
            PlanStore plans,
            MeterRegistry metrics,
            LedgerHistory history,
            Clock clock) {
        this.history = history;
        this.clock = clock;
        this.ledger = ledger;
        this.balances = balances;
        this.spendings = spendings;
        this.accounts = accounts;
        this.plans = plans;
        this.metrics = metrics;
        this.reverts = Counter.builder("pulseledger.reverts")
                .description("Spendings reverted (refunded)")
                .register(metrics);
    }

    public void register(RouteTable routes) {
        routes.post("/api/tokens/spend/{amount}", this::spend)
                .get("/api/tokens/balance", this::balance)
                .get("/api/tokens/plan", this::plan)
                .get("/api/tokens/spendings", this::listSpendings)
                .get("/api/tokens/spendings/{spendingId}", this::getSpending)
                .post("/api/tokens/spendings/{spendingId}/revert", this::revert);
    }

    private void spend(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        long amount = amount(req);
        Optional<String> idempotencyKey = idempotencyKey(req);
        String pool = PoolParams.fromQuery(req);
        SpendResult result = Queued.call(() -> ledger.spend(
                new SpendRequest(caller.accountId(), amount, idempotencyKey, pool, Optional.of(caller.keyId()))));
        countSpend(result);
        switch (result) {
            case SpendResult.Spent spent -> {
                if (spent.replayed()) {
                    res.header(IDEMPOTENT_REPLAYED, "true");
                }
                res.header(
                        Responses.LOCATION,
                        "/api/tokens/spendings/" + spent.spending().id());
                Responses.json(res, 201, TokenJson.spent(spent));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    /**
     * Reverts all that is left of a spending, or with a body {@code {"amount"}} part of it (once per
     * Idempotency-Key; a bodiless revert is safe to repeat without one).
     */
    private void revert(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        String spendingId = Requests.pathParam(req, "spendingId");
        Optional<Long> amount = Requests.optionalJsonBody(req)
                .map(body -> JsonBody.parse(body, REVERT_FIELDS).requiredLong("amount", 1, SpendRequest.MAX_AMOUNT));
        Optional<String> idempotencyKey = idempotencyKey(req);
        if (!SPENDING_ID.matcher(spendingId).matches()) {
            throw LedgerProblems.spendingNotFound();
        }
        RevertResult result = Queued.call(() -> amount.isPresent()
                ? ledger.revert(caller.accountId(), spendingId, amount.get(), idempotencyKey)
                : ledger.revert(caller.accountId(), spendingId));
        switch (result) {
            case RevertResult.Reverted reverted -> {
                if (reverted.replayed()) {
                    res.header(IDEMPOTENT_REPLAYED, "true");
                } else {
                    reverts.increment();
                }
                Responses.ok(res, TokenJson.reverted(reverted));
            }
            case Refusal refusal -> throw LedgerProblems.of(refusal);
        }
    }

    /** The balance with its breakdown; a renewal or expiry that is due happens first. */
    private void balance(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        Optional<Instant> at = Requests.timestamp(req, "at", ProblemCode.INVALID_AT);
        if (at.isPresent()) {
            balanceAt(caller, at.get(), res);
            return;
        }
        Optional<String> pool = Requests.query(req, "pool").map(PoolParams::checked);
        BalanceReader.Balance read =
                Queued.call(() -> balances.read(caller.accountId())).orElseThrow(TokenRoutes::accountGone);
        BalanceReader.Balance current = Queued.call(() ->
                        ledger.catchUpIfDue(caller.accountId(), read.view().dueAt()))
                ? Queued.call(() -> balances.read(caller.accountId())).orElseThrow(TokenRoutes::accountGone)
                : read;
        if (pool.isPresent()) {
            BalanceView ofPool =
                    current.view().ofPool(pool.get()).orElseThrow(() -> LedgerProblems.poolNotFound(pool.get()));
            Responses.ok(res, TokenJson.balance(ofPool));
            return;
        }
        Responses.send(res, 200, Responses.JSON, current.json());
    }

    /** The balance right after the last ledger line at or before {@code at} (CONTRACT §11). */
    private void balanceAt(Caller caller, Instant at, ServerResponse res) {
        if (at.isAfter(clock.instant())) {
            throw new ProblemException(
                    ProblemCode.INVALID_AT,
                    "Query parameter 'at' must not be in the future; omit it for the balance now.");
        }
        Responses.ok(res, new TokenJson.BalanceAtBody(history.balanceAt(caller.accountId(), at), Times.format(at)));
    }

    /** The plan with the current period; a renewal that is due happens first. */
    private void plan(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        Account read = accounts.find(caller.accountId()).orElseThrow(TokenRoutes::accountGone);
        Account account = Queued.call(() -> ledger.catchUpIfDue(read.id(), read.dueAt()))
                ? accounts.find(caller.accountId()).orElseThrow(TokenRoutes::accountGone)
                : read;
        Plan plan = plans.find(account.planId()).orElseThrow(TokenRoutes::accountGone);
        Responses.ok(res, PlanJson.withPeriod(plan, account.currentPeriod(), account.pendingChange()));
    }

    private void getSpending(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        String spendingId = Requests.pathParam(req, "spendingId");
        if (!SPENDING_ID.matcher(spendingId).matches()) {
            throw LedgerProblems.spendingNotFound();
        }
        Spending spending =
                spendings.find(caller.accountId(), spendingId).orElseThrow(LedgerProblems::spendingNotFound);
        Responses.ok(res, TokenJson.spending(spending));
    }

    private void listSpendings(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        int limit = Requests.pageSize(req);
        long before = Cursors.sequence(Requests.query(req, "cursor"), Long.MAX_VALUE);
        Page<Spending> page = spendings.list(caller.accountId(), before, limit);
        Responses.ok(
                res,
                new TokenJson.SpendingPage(
                        page.items().stream().map(TokenJson::spending).toList(),
                        page.nextPosition().map(Cursors::encode).orElse(null)));
    }

    private static long amount(ServerRequest req) {
        String text = req.path().pathParameters().get("amount");
        // Helidon drops ";parameters" from a segment before matching, so "5;x" would arrive as "5".
        boolean plainPath = req.path().rawPath().equals(req.path().rawPathNoParams());
        if (plainPath && text != null && AMOUNT.matcher(text).matches()) {
            long amount = Long.parseLong(text);
            if (amount <= SpendRequest.MAX_AMOUNT) {
                return amount;
            }
        }
        throw new ProblemException(
                ProblemCode.INVALID_AMOUNT, "The amount must be a whole number from 1 to 1000000000.");
    }

    static Optional<String> idempotencyKey(ServerRequest req) {
        if (req.headers().all(IDEMPOTENCY_KEY, List::of).size() > 1) {
            throw invalidIdempotencyKey();
        }
        Optional<String> key = Requests.header(req, IDEMPOTENCY_KEY);
        if (key.isPresent() && !IDEMPOTENCY_KEY_TEXT.matcher(key.get()).matches()) {
            throw invalidIdempotencyKey();
        }
        return key;
    }

    private static ProblemException invalidIdempotencyKey() {
        return new ProblemException(
                ProblemCode.INVALID_IDEMPOTENCY_KEY,
                "Header 'Idempotency-Key' must be 1 to 255 printable ASCII characters, sent once.");
    }

    private void countSpend(SpendResult result) {
        String outcome = switch (result) {
            case SpendResult.Spent spent -> spent.replayed() ? "replayed" : "spent";
            case SpendResult.InsufficientBalance insufficient -> "insufficient_balance";
            case SpendResult.KeyBudgetExceeded over -> "key_budget_exceeded";
            case SpendResult.PoolNotFound unknown -> "pool_not_found";
            case SpendResult.IdempotencyKeyReused reused -> "idempotency_key_reused";
            case SpendResult.IdempotencyKeyInUse inUse -> "idempotency_key_in_use";
        };
        Counter.builder("pulseledger.spends")
                .description("Spend requests by outcome; outcome=\"insufficient_balance\" is each 402")
                .tag("outcome", outcome)
                .register(metrics)
                .increment();
    }

    /** An authenticated key whose account row is gone: only a broken database does this. */
    private static IllegalStateException accountGone() {
        return new IllegalStateException("The caller's account or plan is missing");
    }
}
