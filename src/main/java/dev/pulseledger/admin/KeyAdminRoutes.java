package dev.pulseledger.admin;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.KeyIssuer;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.ApiKey;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.BudgetPeriod;
import dev.pulseledger.keys.KeyBudget;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.web.LedgerProblems;
import dev.pulseledger.ledger.web.PoolParams;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiPredicate;

/** Operator API for caller keys: issue (the only time a key is shown), list, set budgets, revoke. */
public final class KeyAdminRoutes {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "expiresAt", "budgets");
    private static final Set<String> PATCH_FIELDS = Set.of("budgets");
    private static final Set<String> BUDGET_FIELDS = Set.of("pool", "period", "tokens");

    private final Authenticator authenticator;
    private final KeyStore keys;
    private final AccountStore accounts;
    private final KeyIssuer issuer;
    private final BiPredicate<String, String> hasPool;
    private final Clock clock;

    /** {@code hasPool} tells whether an account (first) has a pool (second), so that a budget names one it has. */
    public KeyAdminRoutes(
            Authenticator authenticator,
            KeyStore keys,
            AccountStore accounts,
            BiPredicate<String, String> hasPool,
            Clock clock) {
        this.authenticator = authenticator;
        this.keys = keys;
        this.accounts = accounts;
        this.issuer = new KeyIssuer(keys, accounts);
        this.hasPool = hasPool;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/accounts/{accountId}/keys", this::create)
                .get("/admin/accounts/{accountId}/keys", this::list)
                .patch("/admin/accounts/{accountId}/keys/{keyId}", this::update)
                .delete("/admin/keys/{keyId}", this::revoke);
    }

    private void create(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        JsonBody body = Requests.optionalJsonBody(req)
                .map(raw -> JsonBody.parse(raw, CREATE_FIELDS))
                .orElse(JsonBody.EMPTY);
        String name = body.optionalString("name", 200).orElse("");
        Optional<Instant> expiresAt = body.optionalInstant("expiresAt");
        List<KeyBudget> budgets = budgets(body).orElse(List.of());
        Instant now = clock.instant();
        if (expiresAt.isPresent() && !expiresAt.get().isAfter(now)) {
            throw ProblemException.invalidField("expiresAt", "must be in the future");
        }
        if (accounts.find(accountId).isEmpty()) {
            throw LedgerProblems.accountNotFound();
        }
        requirePools(accountId, budgets);
        switch (issuer.issue(accountId, name, expiresAt, budgets, now)) {
            case KeyIssuer.Issue.Issued issued -> {
                authenticator.catchUp();
                Responses.json(res, 201, AccountJson.newKey(issued.key(), budgets, issued.secret()));
            }
            case KeyIssuer.Issue.AccountNotFound notFound -> throw LedgerProblems.accountNotFound();
            case KeyIssuer.Issue.LimitReached limit ->
                throw new ProblemException(
                        ProblemCode.KEY_LIMIT_REACHED,
                        "An account may have at most " + KeyStore.MAX_KEYS_PER_ACCOUNT + " keys.");
        }
    }

    private void list(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        if (accounts.find(accountId).isEmpty()) {
            throw LedgerProblems.accountNotFound();
        }
        Map<String, List<KeyBudget>> budgets = keys.budgetsOfAccount(accountId);
        Responses.ok(
                res,
                new DataList<>(keys.listForAccount(accountId).stream()
                        .map(key -> AccountJson.key(key, budgets.getOrDefault(key.id(), List.of())))
                        .toList()));
    }

    /** {@code {"budgets": [...]}} replaces the key's budgets; {@code []} clears them (CONTRACT §14). */
    private void update(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        String keyId = Requests.pathParam(req, "keyId");
        JsonBody body = JsonBody.parse(Requests.jsonBody(req), PATCH_FIELDS);
        List<KeyBudget> budgets =
                budgets(body).orElseThrow(() -> ProblemException.invalidField("budgets", "is required"));
        if (accounts.find(accountId).isEmpty()) {
            throw LedgerProblems.accountNotFound();
        }
        ApiKey key =
                keys.find(keyId).filter(k -> k.accountId().equals(accountId)).orElseThrow(KeyAdminRoutes::keyNotFound);
        requirePools(accountId, budgets);
        keys.replaceBudgets(keyId, budgets, clock.instant());
        Responses.ok(res, AccountJson.key(key, budgets));
    }

    private void revoke(ServerRequest req, ServerResponse res) {
        if (!keys.revoke(Requests.pathParam(req, "keyId"), clock.instant())) {
            throw keyNotFound();
        }
        authenticator.catchUp();
        Responses.noContent(res);
    }

    private static ProblemException keyNotFound() {
        return new ProblemException(ProblemCode.KEY_NOT_FOUND, "No key has this id.");
    }

    /**
     * The {@code budgets} of a body, when it has them: at most {@link KeyBudget#MAX_PER_KEY}, each with a
     * pool name, a period and positive tokens, no two for one pool and period; 400 naming the field else.
     */
    private static Optional<List<KeyBudget>> budgets(JsonBody body) {
        Optional<List<JsonBody>> items = body.optionalObjectList("budgets", KeyBudget.MAX_PER_KEY, BUDGET_FIELDS);
        if (items.isEmpty()) {
            return Optional.empty();
        }
        List<KeyBudget> budgets = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.get().size(); i++) {
            JsonBody item = items.get().get(i);
            String at = "budgets[" + i + "]";
            String pool = item.optionalString("pool", PoolParams.MAX_TEXT).orElse(Pools.DEFAULT);
            if (!Pools.validName(pool)) {
                throw ProblemException.invalidField(at + ".pool", "must be a pool name ([a-z0-9][a-z0-9-]{0,31})");
            }
            BudgetPeriod period = BudgetPeriod.fromWire(item.requiredString("period", 16))
                    .orElseThrow(() -> ProblemException.invalidField(at + ".period", "must be day, week or month"));
            long tokens = item.requiredLong("tokens", 1, KeyBudget.MAX_TOKENS);
            if (!seen.add(pool + "/" + period.wire())) {
                throw ProblemException.invalidField(at, "repeats the pool and period of an earlier budget");
            }
            budgets.add(new KeyBudget(pool, period, tokens));
        }
        return Optional.of(budgets);
    }

    /** 404 pool_not_found when a budget names a pool the account does not have. */
    private void requirePools(String accountId, List<KeyBudget> budgets) {
        for (KeyBudget budget : budgets) {
            if (!hasPool.test(accountId, budget.pool())) {
                throw new ProblemException(
                        ProblemCode.POOL_NOT_FOUND, "This account has no pool named '" + budget.pool() + "'.");
            }
        }
    }
}
