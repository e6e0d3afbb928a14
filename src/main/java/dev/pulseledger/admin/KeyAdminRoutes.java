package dev.pulseledger.admin;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.KeyIssuer;
import dev.pulseledger.http.DataList;
import dev.pulseledger.http.JsonBody;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.web.LedgerProblems;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/** Operator API for caller keys: issue (the only time a key is shown), list, revoke. */
public final class KeyAdminRoutes {
    private static final Set<String> CREATE_FIELDS = Set.of("name", "expiresAt");

    private final Authenticator authenticator;
    private final KeyStore keys;
    private final AccountStore accounts;
    private final KeyIssuer issuer;
    private final Clock clock;

    public KeyAdminRoutes(Authenticator authenticator, KeyStore keys, AccountStore accounts, Clock clock) {
        this.authenticator = authenticator;
        this.keys = keys;
        this.accounts = accounts;
        this.issuer = new KeyIssuer(keys, accounts);
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.post("/admin/accounts/{accountId}/keys", this::create)
                .get("/admin/accounts/{accountId}/keys", this::list)
                .delete("/admin/keys/{keyId}", this::revoke);
    }

    private void create(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        JsonBody body = Requests.optionalJsonBody(req)
                .map(raw -> JsonBody.parse(raw, CREATE_FIELDS))
                .orElse(JsonBody.EMPTY);
        String name = body.optionalString("name", 200).orElse("");
        Optional<Instant> expiresAt = body.optionalInstant("expiresAt");
        Instant now = clock.instant();
        if (expiresAt.isPresent() && !expiresAt.get().isAfter(now)) {
            throw ProblemException.invalidField("expiresAt", "must be in the future");
        }
        switch (issuer.issue(accountId, name, expiresAt, now)) {
            case KeyIssuer.Issue.Issued issued -> {
                authenticator.catchUp();
                Responses.json(res, 201, AccountJson.newKey(issued.key(), issued.secret()));
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
        Responses.ok(
                res,
                new DataList<>(keys.listForAccount(accountId).stream()
                        .map(AccountJson::key)
                        .toList()));
    }

    private void revoke(ServerRequest req, ServerResponse res) {
        if (!keys.revoke(Requests.pathParam(req, "keyId"), clock.instant())) {
            throw new ProblemException(ProblemCode.KEY_NOT_FOUND, "No key has this id.");
        }
        authenticator.catchUp();
        Responses.noContent(res);
    }
}
