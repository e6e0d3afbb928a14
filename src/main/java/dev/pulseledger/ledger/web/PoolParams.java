package dev.pulseledger.ledger.web;

import dev.pulseledger.accounts.Pools;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import io.helidon.webserver.http.ServerRequest;

/** A pool named by a request (CONTRACT §14): checked here, so the ledger only meets well-formed names. */
public final class PoolParams {
    /** The longest text read where a pool name is expected, so that a longer name is named invalid_pool. */
    public static final int MAX_TEXT = 200;

    private PoolParams() {}

    /** The pool of query parameter {@code pool}, {@code default} without one; 400 when it is no pool name. */
    public static String fromQuery(ServerRequest req) {
        return Requests.query(req, "pool").map(PoolParams::checked).orElse(Pools.DEFAULT);
    }

    /** The name, or 400 invalid_pool when it is not one. */
    public static String checked(String pool) {
        if (!Pools.validName(pool)) {
            throw new ProblemException(
                    ProblemCode.INVALID_POOL,
                    "A pool is named by 1 to 32 of a-z, 0-9 and '-', starting with a letter or digit.");
        }
        return pool;
    }
}
