package dev.pulseledger.http;

import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Fault;
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
            if (problem.code() == ProblemCode.INTERNAL_ERROR) {
                // Only a bug gets here: its stack trace is what it takes to fix it. A database fault was
                // logged once by the store that met it, and is not logged again per request.
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
            if (cause instanceof DatabaseUnavailableException unavailable) {
                Fault fault = unavailable.fault();
                return new ProblemException(code(fault), fault.detail())
                        .withHeader(
                                "Retry-After", Long.toString(fault.retryAfter().toSeconds()));
            }
        }
        return new ProblemException(ProblemCode.INTERNAL_ERROR, "The server failed to handle the request.");
    }

    private static ProblemCode code(Fault fault) {
        return switch (fault) {
            case DATABASE_UNAVAILABLE -> ProblemCode.DATABASE_UNAVAILABLE;
            case STORAGE_FULL -> ProblemCode.STORAGE_FULL;
            case ACCOUNT_BUSY -> ProblemCode.ACCOUNT_BUSY;
        };
    }
}
