package dev.pulseledger.http;

import dev.pulseledger.http.edge.StrictHttp1;
import io.helidon.http.DirectHandler;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.http.DirectHandlers;
import java.util.List;

/**
 * Problem documents for errors the server answers before routing (malformed requests, oversized
 * bodies or headers, too many requests at once), so that even those never come back as plain text
 * or HTML, and carry a request id like every other response.
 */
public final class DirectErrors {
    /** Helidon's words when a request's header section passes {@code maxHeadersSize}. */
    private static final String HEADERS_TOO_LARGE = "Header size exceeded";

    private static final String UNREADABLE = "The request could not be read as HTTP.";

    private DirectErrors() {}

    /** The handlers; {@code always} are headers every response carries (Strict-Transport-Security). */
    public static DirectHandlers handlers(List<Header> always) {
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, (request, event, status, headers, message) -> {
                always.forEach(headers::set);
                return problem(request, event, status, headers, message);
            });
        }
        return builder.build();
    }

    private static DirectHandler.TransportResponse problem(
            DirectHandler.TransportRequest request,
            DirectHandler.EventType type,
            Status status,
            ServerResponseHeaders headers,
            String message) {
        ProblemException problem =
                type == DirectHandler.EventType.INTERNAL_ERROR ? unreadable() : problem(status, message);
        headers.set(HeaderNames.CONTENT_TYPE, Responses.PROBLEM_JSON);
        headers.set(
                RequestFilter.REQUEST_ID,
                RequestFilter.requestId(request.headers().first(RequestFilter.REQUEST_ID)));
        headers.set(HeaderNames.X_CONTENT_TYPE_OPTIONS, "nosniff");
        problem.headers().forEach((name, value) -> headers.set(HeaderNames.create(name), value));
        return DirectHandler.TransportResponse.builder()
                .status(Status.create(problem.status(), problem.title()))
                .headers(headers)
                .entity(Json.bytes(ProblemBody.of(problem)))
                .build();
    }

    private static ProblemException problem(Status status, String message) {
        int code = status.code();
        if (code == 400 && HEADERS_TOO_LARGE.equals(message)) {
            code = 431;
        }
        if (code == 400 && StrictHttp1.MALFORMED_BODY.equals(message)) {
            return Requests.invalidBody();
        }
        return switch (code) {
            case 413 -> Requests.tooLarge();
            case 414 ->
                new ProblemException(ProblemCode.URI_TOO_LONG, "The request line (path and query) is too long.");
            case 431 ->
                new ProblemException(ProblemCode.REQUEST_HEADER_FIELDS_TOO_LARGE, "The request headers are too large.");
            case 503 ->
                new ProblemException(ProblemCode.OVERLOADED, "Too many requests are in progress; retry shortly.")
                        .withHeader(HeaderNames.RETRY_AFTER.defaultCase(), "1");
            case 505 ->
                new ProblemException(ProblemCode.HTTP_VERSION_NOT_SUPPORTED, "This server speaks HTTP/1.1 only.");
            default ->
                code >= 500
                        ? new ProblemException(ProblemCode.INTERNAL_ERROR, "The server failed to read the request.")
                        : code == 400
                                ? unreadable()
                                : ProblemException.unreadable(code, status.reasonPhrase(), UNREADABLE);
        };
    }

    /**
     * Routing errors never reach this class (ErrorHandlers answers them), so an internal error here
     * comes from reading the request: Helidon reports some malformed request lines, such as a control
     * character in the method, as internal errors. They are the client's fault, answered 400.
     */
    private static ProblemException unreadable() {
        return new ProblemException(ProblemCode.BAD_REQUEST, UNREADABLE);
    }
}
