package dev.pulseledger.console;

import dev.pulseledger.http.Access;
import dev.pulseledger.http.ProblemException;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * Feeds {@link SpendActivity} from the outcome of each spend request (201 or 402), beside the spend
 * path rather than inside it. Replayed responses are not counted again.
 */
public final class SpendActivityFilter implements Filter {
    private static final String SPEND_PATH = "/api/tokens/spend/";
    private static final HeaderName REPLAYED = HeaderNames.create("Idempotent-Replayed");

    private final Access access;
    private final SpendActivity activity;

    public SpendActivityFilter(Access access, SpendActivity activity) {
        this.access = access;
        this.activity = activity;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        String path = req.path().path();
        if (!path.startsWith(SPEND_PATH)) {
            chain.proceed();
            return;
        }
        try {
            chain.proceed();
        } catch (ProblemException e) {
            count(req, path, e.status(), e.headers().containsKey(REPLAYED.defaultCase()));
            throw e;
        }
        count(req, path, res.status().code(), res.headers().contains(REPLAYED));
    }

    private void count(RoutingRequest req, String path, int status, boolean replayed) {
        if (replayed) {
            return;
        }
        if (status == 201) {
            access.callerIfAny(req).ifPresent(caller -> activity.spent(caller.accountId(), amount(path)));
        } else if (status == 402) {
            access.callerIfAny(req).ifPresent(caller -> activity.refused(caller.accountId()));
        }
    }

    /** The amount the route accepted: a 201 means the last segment was a valid whole number. */
    private static long amount(String path) {
        return Long.parseLong(path.substring(SPEND_PATH.length()));
    }
}
