package dev.pulseledger.http;

import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.Authenticator;
import dev.pulseledger.keys.Caller;
import dev.pulseledger.keys.KeyCheck;
import io.helidon.webserver.http.ServerRequest;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Who may call: turns the key check of a request into the caller, or into the contract's 401/403
 * problem. A request's key is checked at most once: filters and the route share the result.
 */
public final class Access {
    private static final String CHALLENGE = "ApiKey header=\"X-ApiKey\"";
    private static final Object CHECKED_KEY = new Object();
    /** Marks a request whose unknown key the flood gate already counted against its client's allowance. */
    private static final Object COUNTED_FAILURE = new Object();

    private final Authenticator authenticator;
    private final ClientAddresses clients;
    private final FailedAuthCount failures;

    public Access(Authenticator authenticator, ClientAddresses clients, FailedAuthCount failures) {
        this.authenticator = authenticator;
        this.clients = clients;
        this.failures = failures;
    }

    /** The caller behind a caller key, or the problem that answers any other key (RouteTable's rule for /api). */
    Caller caller(ServerRequest req) {
        return switch (check(req)) {
            case KeyCheck.OfCaller ofCaller -> ofCaller.caller();
            case KeyCheck.Admin admin ->
                throw forbidden("An admin key is not a caller key; use a caller key on /api/.");
            case KeyCheck.Refused(KeyCheck.Reason reason)
            when reason == KeyCheck.Reason.ACCOUNT_SUSPENDED ->
                throw new ProblemException(ProblemCode.ACCOUNT_SUSPENDED, "This account is suspended.");
            case KeyCheck.Refused(KeyCheck.Reason reason) -> throw unauthorized(reason);
        };
    }

    /** The caller behind a caller key; empty for any other key or none. */
    public Optional<Caller> callerIfAny(ServerRequest req) {
        return check(req) instanceof KeyCheck.OfCaller(Caller caller) ? Optional.of(caller) : Optional.empty();
    }

    /** The operator behind an admin key; a known caller key gets 403, anything else 401. */
    Actor requireAdmin(ServerRequest req) {
        return switch (check(req)) {
            case KeyCheck.Admin admin -> admin.actor();
            case KeyCheck.OfCaller ofCaller -> throw forbidden("This endpoint needs an admin key.");
            case KeyCheck.Refused(KeyCheck.Reason reason)
            when reason == KeyCheck.Reason.ACCOUNT_SUSPENDED -> throw forbidden("This endpoint needs an admin key.");
            case KeyCheck.Refused(KeyCheck.Reason reason) -> throw unauthorized(reason);
        };
    }

    /** Whether the request's key may still call now, checked afresh (a long stream asks this repeatedly). */
    public boolean stillCaller(ServerRequest req) {
        return authenticator.check(Requests.apiKey(req)) instanceof KeyCheck.OfCaller;
    }

    /**
     * Seconds to wait, when the request is to be refused as part of a flood: its key is one this node
     * does not know and its client has used up its failed authentications. Decided from memory, before
     * any other work. An unknown key within the allowance takes its failure from it here, so that of
     * requests arriving together only as many as the allowance holds go on (to wait for the access
     * feed's next read and get their 401) and the rest are refused here; a key that passes is not
     * checked again for the rest of the request.
     */
    OptionalLong floodRefusal(ServerRequest req) {
        KeyCheck check = authenticator.check(Requests.apiKey(req), false);
        if (!(check instanceof KeyCheck.Refused(KeyCheck.Reason reason) && reason == KeyCheck.Reason.UNKNOWN)) {
            req.context().register(CHECKED_KEY, check);
            return OptionalLong.empty();
        }
        String client = clients.of(req);
        if (!failures.failed(client)) {
            return OptionalLong.of(failures.retryAfterSeconds(client));
        }
        req.context().register(COUNTED_FAILURE, Boolean.TRUE);
        return OptionalLong.empty();
    }

    private KeyCheck check(ServerRequest req) {
        Optional<KeyCheck> known = req.context().get(CHECKED_KEY, KeyCheck.class);
        if (known.isPresent()) {
            return known.get();
        }
        KeyCheck check = checkCounted(req);
        req.context().register(CHECKED_KEY, check);
        return check;
    }

    /**
     * Checks the key and counts an unknown one against the client's address, unless the flood gate
     * counted it already. A client past its allowance gets 429 for a key this node does not know,
     * without a lookup or a wait.
     */
    private KeyCheck checkCounted(ServerRequest req) {
        boolean counted = req.context().get(COUNTED_FAILURE, Boolean.class).isPresent();
        String client = clients.of(req);
        boolean exhausted = !counted && failures.exhausted(client);
        KeyCheck check = authenticator.check(Requests.apiKey(req), !exhausted);
        boolean unknown =
                check instanceof KeyCheck.Refused(KeyCheck.Reason reason) && reason == KeyCheck.Reason.UNKNOWN;
        if (unknown && !counted && (exhausted || !failures.failed(client))) {
            throw FailedAuthRefusal.problem(failures.retryAfterSeconds(client));
        }
        if (!unknown && counted) {
            // A key another node made a moment ago: it showed with the feed's read, so no failure after all.
            failures.forgive(client);
        }
        return check;
    }

    private static ProblemException unauthorized(KeyCheck.Reason reason) {
        ProblemException problem = reason == KeyCheck.Reason.MISSING
                ? new ProblemException(ProblemCode.MISSING_API_KEY, "Send your API key in the X-ApiKey header.")
                : new ProblemException(ProblemCode.INVALID_API_KEY, "The API key is unknown, revoked or expired.");
        return problem.withHeader("WWW-Authenticate", CHALLENGE);
    }

    private static ProblemException forbidden(String detail) {
        return new ProblemException(ProblemCode.FORBIDDEN, detail);
    }
}
