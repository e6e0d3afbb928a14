package dev.pulseledger.console;

import dev.pulseledger.http.ProblemException;
import dev.pulseledger.keys.Caller;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Optional;

/**
 * Feeds {@link SpendActivity} from the outcome of each spend request (201 or 402), beside the spend
 * path rather than inside it. Replayed responses are not counted again.
 */
public final class SpendActivityFilter implements Filter {
    private static final String SPEND_PATH = "/api/tokens/spend/";
    private static final HeaderName REPLAYED = HeaderNames.create("Idempotent-Replayed");

    private final SpendActivity activity;

    public SpendActivityFilter(SpendActivity activity) {
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
            caller(req).ifPresent(caller -> activity.spent(caller.accountId(), amount(path)));
        } else if (status == 402) {
            caller(req).ifPresent(caller -> activity.refused(caller.accountId()));
        }
    }

    /** The caller the spend route authenticated, if it got that far. */
    private static Optional<Caller> caller(RoutingRequest req) {
        return req.context().get(Caller.class);
    }

    /** The amount the route accepted: a 201 means the last segment was a valid whole number. */
    private static long amount(String path) {
        return Long.parseLong(path.substring(SPEND_PATH.length()));
    }
}
