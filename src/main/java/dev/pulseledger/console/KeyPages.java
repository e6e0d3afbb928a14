package dev.pulseledger.console;

import dev.pulseledger.accounts.KeyIssuer;
import dev.pulseledger.console.ConsoleSessions.Session;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.KeyStore;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Issuing a caller key, whose secret is shown on the response page once (never stored, never
 * redirected through a URL), and revoking one.
 */
final class KeyPages {
    private final KeyIssuer issuer;
    private final KeyStore keys;
    private final Authenticator authenticator;
    private final AccountPages accountPages;
    private final ConsoleView view;
    private final Clock clock;

    KeyPages(
            KeyIssuer issuer,
            KeyStore keys,
            Authenticator authenticator,
            AccountPages accountPages,
            ConsoleView view,
            Clock clock) {
        this.issuer = issuer;
        this.keys = keys;
        this.authenticator = authenticator;
        this.accountPages = accountPages;
        this.view = view;
        this.clock = clock;
    }

    void register(RouteTable routes, ConsoleGuard guard) {
        routes.post("/console/accounts/{accountId}/keys", guard.change(this::issue))
                .post("/console/accounts/{accountId}/keys/{keyId}/revoke", guard.change(this::revoke));
    }

    private void issue(ServerRequest req, ServerResponse res, Session session, Form form) {
        String accountId = Requests.pathParam(req, "accountId");
        Optional<String> name = form.text("keyName", 200, false);
        if (!form.valid()) {
            accountPages.showFailed(res, session, accountId, form, "keys");
            return;
        }
        switch (issuer.issue(accountId, name.orElse(""), Optional.empty(), List.of(), clock.instant())) {
            case KeyIssuer.Issue.Issued issued -> {
                authenticator.catchUp();
                view.render(
                        res,
                        201,
                        "key-issued",
                        Optional.of(session),
                        Map.of("key", issued.key(), "secret", issued.secret()));
            }
            case KeyIssuer.Issue.AccountNotFound notFound -> view.notFound(res, session);
            case KeyIssuer.Issue.LimitReached limit -> {
                form.error("keyName", "This account has " + KeyStore.MAX_KEYS_PER_ACCOUNT + " keys, the most allowed.");
                accountPages.showFailed(res, session, accountId, form, "keys");
            }
        }
    }

    private void revoke(ServerRequest req, ServerResponse res, Session session, Form form) {
        if (!keys.revoke(Requests.pathParam(req, "keyId"), clock.instant())) {
            view.notFound(res, session);
            return;
        }
        authenticator.catchUp();
        ConsoleGuard.redirect(res, AccountPages.path(Requests.pathParam(req, "accountId")) + "?done=revoked");
    }
}
