package dev.pulseledger.http;

import io.github.bucket4j.BandwidthBuilder;
import io.github.bucket4j.Bucket;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional access log ({@code --access-log}): one line per request on the logger
 * {@code dev.pulseledger.access}, with the client, method, path, status, time and request id. The
 * query string and every header stay out, and anything shaped like a key in the path is cut to its
 * prefix, so no key can reach the log. Refusals of a key (401, 429) are logged at most
 * {@value #REFUSAL_LINES_PER_SECOND} a second, so that a flood of made-up keys is not also a flood of
 * log lines; the next refusal logged says how many were left out.
 */
public final class AccessLog implements Filter {
    static final int REFUSAL_LINES_PER_SECOND = 10;
    private static final Logger LOG = LoggerFactory.getLogger("dev.pulseledger.access");
    private static final int MAX_PATH_LENGTH = 200;
    /** A key pasted into a path by mistake is still a key: keep its prefix only. */
    private static final Pattern KEY_LIKE = Pattern.compile("(pl_(?:admin_)?)[A-Za-z0-9]+");

    private final Bucket refusalLines = Bucket.builder()
            .addLimit(BandwidthBuilder.builder()
                    .capacity(REFUSAL_LINES_PER_SECOND)
                    .refillGreedy(REFUSAL_LINES_PER_SECOND, Duration.ofSeconds(1))
                    .build())
            .build();
    private final AtomicLong refusalsLeftOut = new AtomicLong();

    @Override
    public void filter(FilterChain chain, RoutingRequest req, RoutingResponse res) {
        long startNanos = System.nanoTime();
        try {
            chain.proceed();
        } finally {
            log(req, res, startNanos);
        }
    }

    private void log(RoutingRequest req, RoutingResponse res, long startNanos) {
        int status = res.status().code();
        String leftOut = "";
        if (status == 401 || status == 429) {
            if (!refusalLines.tryConsume(1)) {
                refusalsLeftOut.incrementAndGet();
                return;
            }
            long skipped = refusalsLeftOut.getAndSet(0);
            leftOut = skipped == 0 ? "" : " (" + skipped + " more 401/429 lines left out)";
        }
        String path = KEY_LIKE.matcher(req.path().rawPath()).replaceAll("$1…");
        LOG.info(
                "{} \"{} {}\" {} {} ms id={}{}",
                req.remotePeer().host(),
                MetricLabels.method(req.prologue().method().text()),
                path.length() <= MAX_PATH_LENGTH ? path : path.substring(0, MAX_PATH_LENGTH) + "…",
                status,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos),
                res.headers().first(RequestFilter.REQUEST_ID).orElse("-"),
                leftOut);
    }
}
