package dev.pulseledger.http;

import dev.pulseledger.db.OwnWrites;
import io.helidon.http.Method;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Set;

/**
 * Tells {@link OwnWrites} who each request reads for (its caller's account, else the operators) and when
 * a write request of theirs is under way and ends, so that their next reads see what they wrote even when
 * a replica serves reads (CONTRACT §18). Only with read replicas configured.
 */
public final class OwnWritesFilter implements Filter {
    private static final Set<Method> READS = Set.of(Method.GET, Method.HEAD, Method.OPTIONS);
    /** Answers that rule out a commit: no key, a refused key, no such route, too many requests. */
    private static final Set<Integer> NOTHING_WRITTEN = Set.of(401, 403, 404, 405, 429);

    private final Access access;
    private final OwnWrites ownWrites;

    public OwnWritesFilter(Access access, OwnWrites ownWrites) {
        this.access = access;
        this.ownWrites = ownWrites;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String requester = access.callerIfAny(req)
                .map(caller -> OwnWrites.account(caller.accountId()))
                .orElseGet(OwnWrites::operators);
        OwnWrites.actAs(requester);
        boolean writes = !READS.contains(req.prologue().method());
        if (writes) {
            ownWrites.writing(requester);
        }
        int status = 500;
        try {
            chain.proceed();
            status = res.status().code();
        } catch (ProblemException e) {
            status = e.status();
            throw e;
        } finally {
            if (writes) {
                ownWrites.wrote(requester, !NOTHING_WRITTEN.contains(status), System.nanoTime());
            }
            OwnWrites.clear();
        }
    }
}
