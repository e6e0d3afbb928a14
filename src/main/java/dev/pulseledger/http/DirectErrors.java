package dev.pulseledger.http;

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
        if (code == 400 && FramedConnection.MALFORMED_BODY.equals(message)) {
            return Requests.invalidBody();
        }
        return switch (code) {
            case 413 -> Requests.tooLarge();
            case 414 -> problem(414, "uri_too_long", "URI Too Long", "The request line (path and query) is too long.");
            case 431 ->
                problem(
                        431,
                        "request_header_fields_too_large",
                        "Request Header Fields Too Large",
                        "The request headers are too large.");
            case 503 ->
                problem(503, "overloaded", "Service Unavailable", "Too many requests are in progress; retry shortly.")
                        .withHeader(HeaderNames.RETRY_AFTER.defaultCase(), "1");
            case 505 ->
                problem(
                        505,
                        "http_version_not_supported",
                        "HTTP Version Not Supported",
                        "This server speaks HTTP/1.1 only.");
            default ->
                code >= 500
                        ? problem(
                                500,
                                "internal_error",
                                "Internal Server Error",
                                "The server failed to read the request.")
                        : code == 400
                                ? unreadable()
                                : problem(
                                        code,
                                        "bad_request",
                                        status.reasonPhrase(),
                                        "The request could not be read as HTTP.");
        };
    }

    /**
     * Routing errors never reach this class (ErrorHandlers answers them), so an internal error here
     * comes from reading the request: Helidon reports some malformed request lines, such as a control
     * character in the method, as internal errors. They are the client's fault, answered 400.
     */
    private static ProblemException unreadable() {
        return problem(400, "bad_request", "Bad Request", "The request could not be read as HTTP.");
    }

    private static ProblemException problem(int status, String code, String title, String detail) {
        return new ProblemException(status, code, title, detail);
    }
}
