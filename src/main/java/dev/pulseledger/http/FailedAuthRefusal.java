package dev.pulseledger.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/**
 * The 429 {@code too_many_failed_authentications} problem, with its body built once: a flood gets
 * this answer thousands of times a second, so sending it costs a status line, two headers and a
 * copy of ready bytes.
 */
final class FailedAuthRefusal {
    private static final HeaderName RETRY_AFTER = HeaderNames.RETRY_AFTER;
    /* The wait is in Retry-After only, so that the body is the same for every refusal. */
    private static final String DETAIL =
            "Too many unknown API keys came from your address; retry after the seconds in Retry-After.";
    private static final byte[] BODY = Json.bytes(ProblemBody.of(problem(1)));

    private FailedAuthRefusal() {}

    /** The refusal as a problem to throw, for a request that found the allowance used up as it failed. */
    static ProblemException problem(long retryAfterSeconds) {
        return new ProblemException(ProblemCode.TOO_MANY_FAILED_AUTHENTICATIONS, DETAIL)
                .withHeader(RETRY_AFTER.defaultCase(), Long.toString(retryAfterSeconds));
    }

    /** Sends the refusal straight away, without an exception or any JSON to write. */
    static void send(ServerResponse res, long retryAfterSeconds) {
        res.status(Status.TOO_MANY_REQUESTS_429);
        res.header(RETRY_AFTER, Long.toString(retryAfterSeconds));
        res.header(HeaderNames.CONTENT_TYPE, Responses.PROBLEM_JSON);
        res.send(BODY);
    }
}
