package dev.pulseledger.http;

import dev.pulseledger.store.DatabaseUnavailableException;
import io.helidon.webserver.http.HttpRouting;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Turns every exception a handler throws into a problem document, never a stack trace. */
public final class ErrorHandlers {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorHandlers.class);

    private ErrorHandlers() {}

    public static void install(HttpRouting.Builder routing) {
        routing.error(ProblemException.class, (req, res, problem) -> {
            if (!res.isSent()) {
                Responses.problem(res, problem);
            }
        });
        routing.error(Throwable.class, (req, res, error) -> {
            ProblemException problem = translate(error);
            if (problem.status() >= 500 && !(error instanceof ProblemException)) {
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

    private static ProblemException translate(Throwable error) {
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            if (cause instanceof ProblemException problem) {
                return problem;
            }
            if (cause instanceof DatabaseUnavailableException) {
                return new ProblemException(
                        503,
                        "database_unavailable",
                        "Service Unavailable",
                        "The database is not reachable right now; retry shortly.");
            }
        }
        return new ProblemException(
                500, "internal_error", "Internal Server Error", "The server failed to handle the request.");
    }
}
