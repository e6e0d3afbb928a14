package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import dev.pulseledger.http.Responses;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.http.Times;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.keys.KeyStore;
import dev.pulseledger.ledger.read.Granularity;
import dev.pulseledger.ledger.read.LedgerHistory;
import dev.pulseledger.ledger.read.UsageReport;
import dev.pulseledger.ledger.read.UsageWindow;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code GET /api/tokens/usage}: the caller's own spending per UTC hour, day or month (CONTRACT §11), in
 * every pool or, with {@code ?pool=}, in one, and by every key or, with {@code ?keyId=}, by one of the
 * account's (§14); {@code GET /admin/accounts/{accountId}/usage} is the same for operators.
 */
public final class UsageRoutes {
    private final LedgerHistory history;
    private final KeyStore keys;
    private final AccountStore accounts;
    private final Clock clock;

    public UsageRoutes(LedgerHistory history, KeyStore keys, AccountStore accounts, Clock clock) {
        this.history = history;
        this.keys = keys;
        this.accounts = accounts;
        this.clock = clock;
    }

    public void register(RouteTable routes) {
        routes.get("/api/tokens/usage", this::usage);
    }

    public void registerAdmin(RouteTable routes) {
        routes.get("/admin/accounts/{accountId}/usage", this::accountUsage);
    }

    /** The JSON of a usage report. */
    record UsageBody(String from, String to, String granularity, List<BucketBody> buckets, TotalBody total) {}

    record BucketBody(String start, long spent, long reverted, long spendings) {}

    record TotalBody(long spent, long reverted, long spendings) {}

    private void usage(ServerRequest req, ServerResponse res) {
        Caller caller = RouteTable.caller(req);
        Responses.ok(res, body(report(req, caller.accountId())));
    }

    private void accountUsage(ServerRequest req, ServerResponse res) {
        String accountId = Requests.pathParam(req, "accountId");
        if (accounts.find(accountId).isEmpty()) {
            throw LedgerProblems.accountNotFound();
        }
        Responses.ok(res, body(report(req, accountId)));
    }

    /** The account's usage as the request's query asks: its window, granularity, pool and key. */
    private UsageReport report(ServerRequest req, String accountId) {
        Granularity granularity = Requests.query(req, "granularity")
                .map(text -> Granularity.fromWire(text)
                        .orElseThrow(() -> new ProblemException(
                                ProblemCode.INVALID_GRANULARITY,
                                "Query parameter 'granularity' must be hour, day or month.")))
                .orElse(Granularity.DAY);
        Instant now = clock.instant();
        Instant to = Requests.timestamp(req, "to", ProblemCode.INVALID_TO).orElse(now);
        Instant from =
                Requests.timestamp(req, "from", ProblemCode.INVALID_FROM).orElseGet(() -> Granularity.MONTH.floor(now));
        if (!from.isBefore(to)) {
            throw new ProblemException(ProblemCode.INVALID_TO, "Query parameter 'to' must be after 'from'.");
        }
        UsageWindow window = UsageWindow.covering(from, to, granularity)
                .orElseThrow(() -> new ProblemException(
                        ProblemCode.TOO_MANY_BUCKETS,
                        "From 'from' to 'to' spans more than " + UsageWindow.MAX_BUCKETS + " " + granularity.wire()
                                + " buckets; narrow the window or choose a coarser 'granularity'."));
        Optional<String> pool = Requests.query(req, "pool").map(PoolParams::checked);
        if (pool.isPresent() && !history.hasPool(accountId, pool.get())) {
            throw LedgerProblems.poolNotFound(pool.get());
        }
        Optional<String> keyId = Requests.query(req, "keyId");
        if (keyId.isPresent()
                && keys.find(keyId.get())
                        .filter(key -> key.accountId().equals(accountId))
                        .isEmpty()) {
            throw new ProblemException(ProblemCode.KEY_NOT_FOUND, "No key with this id belongs to the account.");
        }
        return history.usage(accountId, pool, keyId, window);
    }

    static UsageBody body(UsageReport report) {
        UsageWindow window = report.window();
        return new UsageBody(
                Times.format(window.from()),
                Times.format(window.to()),
                window.granularity().wire(),
                report.buckets().stream()
                        .map(b -> new BucketBody(Times.format(b.start()), b.spent(), b.reverted(), b.spendings()))
                        .toList(),
                new TotalBody(
                        report.total().spent(),
                        report.total().reverted(),
                        report.total().spendings()));
    }
}
