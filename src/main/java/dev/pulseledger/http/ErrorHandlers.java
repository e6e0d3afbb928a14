package dev.pulseledger.http;

import dev.pulseledger.store.DatabaseUnavailableException;
import io.helidon.webserver.http.HttpRouting;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns every exception a handler throws into a problem document, never a stack trace. */
public final class ErrorHandlers {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorHandlers.class);
    private static final String INTERNAL_ERROR = "internal_error";
    private static final String DATABASE_UNAVAILABLE = "database_unavailable";
    private static final Duration OUTAGE_LOG_INTERVAL = Duration.ofSeconds(10);
    private static final AtomicLong lastOutageLogNanos =
            new AtomicLong(System.nanoTime() - OUTAGE_LOG_INTERVAL.toNanos());
    private static final AtomicLong outageFailures = new AtomicLong();

    private ErrorHandlers() {}

    public static void install(HttpRouting.Builder routing) {
        routing.error(ProblemException.class, (req, res, problem) -> {
            if (!res.isSent()) {
                Responses.problem(res, problem);
            }
        });
        routing.error(Throwable.class, (req, res, error) -> {
            ProblemException problem = translate(error);
            if (problem.code().equals(DATABASE_UNAVAILABLE)) {
                logDatabaseUnavailable(error);
            } else if (problem.code().equals(INTERNAL_ERROR)) {
                // Only a bug gets here: its stack trace is what it takes to fix it.
                LOG.error(
                        "Request {} {} failed",
                        req.prologue().method().text(),
                        req.matchingPattern().orElse("unmatched"),
                        error);
            }
            if (!res.isSent()) {
                Responses.problem(res, problem);
            }
        });
    }

    /** One line, at most every {@link #OUTAGE_LOG_INTERVAL}, however many requests an outage fails. */
    private static void logDatabaseUnavailable(Throwable error) {
        long now = System.nanoTime();
        long last = lastOutageLogNanos.get();
        long suppressed = outageFailures.incrementAndGet();
        if (now - last >= OUTAGE_LOG_INTERVAL.toNanos() && lastOutageLogNanos.compareAndSet(last, now)) {
            outageFailures.addAndGet(-suppressed);
            LOG.warn("{} request(s) failed with 503: {}", suppressed, rootMessage(error));
        }
    }

    private static String rootMessage(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + ": " + root.getMessage();
    }

    private static ProblemException translate(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProblemException problem) {
                return problem;
            }
            if (cause instanceof DatabaseUnavailableException) {
                return new ProblemException(
                                503,
                                DATABASE_UNAVAILABLE,
                                "Service Unavailable",
                                "The database is not reachable right now; retry shortly.")
                        .withHeader("Retry-After", "1");
            }
        }
        return new ProblemException(
                500, INTERNAL_ERROR, "Internal Server Error", "The server failed to handle the request.");
    }
}
