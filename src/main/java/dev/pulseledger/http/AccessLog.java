package dev.pulseledger.http;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional access log ({@code --access-log}): one line per request on the logger
 * {@code dev.pulseledger.access}, with the client, method, path, status, time and request id. The
 * query string and every header stay out, and anything shaped like a key in the path is cut to its
 * prefix, so no key can reach the log.
 */
public final class AccessLog implements Filter {
    private static final Logger LOG = LoggerFactory.getLogger("dev.pulseledger.access");
    private static final int MAX_PATH_LENGTH = 200;
    /** A key pasted into a path by mistake is still a key: keep its prefix only. */
    private static final Pattern KEY_LIKE = Pattern.compile("(pl_(?:admin_)?)[A-Za-z0-9]+");

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long startNanos = System.nanoTime();
        try {
            chain.proceed();
        } finally {
            String path = KEY_LIKE.matcher(req.path().rawPath()).replaceAll("$1…");
            LOG.info(
                    "{} \"{} {}\" {} {} ms id={}",
                    req.remotePeer().host(),
                    MetricLabels.method(req.prologue().method().text()),
                    path.length() <= MAX_PATH_LENGTH ? path : path.substring(0, MAX_PATH_LENGTH) + "…",
                    res.status().code(),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                    res.headers().first(RequestFilter.REQUEST_ID).orElse("-"));
        }
    }
}
