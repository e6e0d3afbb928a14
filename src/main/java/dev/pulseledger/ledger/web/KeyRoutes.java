package dev.pulseledger.ledger.web;

import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.keys.ApiKey;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.read.LedgerHistory;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;

/** {@code GET /api/tokens/key}: the caller's own key with each budget's use in its current window (CONTRACT §14). */
public final class KeyRoutes {
    private final KeyStore keys;
    private final LedgerHistory history;
    private final Clock clock;

    public KeyRoutes(KeyStore keys, LedgerHistory history, Clock clock) {
        this.keys = keys;
        this.history = history;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.get("/api/tokens/key", this::key);
    }

    private void key(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        ApiKey key = keys.find(caller.keyId())
                .orElseThrow(() -> new IllegalStateException("An authenticated key is missing: " + caller.keyId()));
        Responses.ok(
                res,
                new KeyBudgetJson.KeyBody(
                        key.id(),
                        key.name(),
                        history.budgetWindows(key.id(), clock.instant()).stream()
                                .map(KeyBudgetJson::window)
                                .toList()));
    }
}
