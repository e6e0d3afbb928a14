package dev.pulseledger.http;

import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.DirectHandlers;
import java.util.Map;

/**
 * Problem documents for errors the server answers before routing (malformed requests, oversized
 * bodies or headers), so that even those never come back as plain text or HTML.
 */
public final class DirectErrors {
    private DirectErrors() {}

    public static DirectHandlers handlers() {
        DirectHandlers.Builder builder = DirectHandlers.builder();
        for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
            builder.addHandler(type, DirectErrors::problem);
        }
        return builder.build();
    }

    private static DirectHandler.TransportResponse problem(
            DirectHandler.TransportRequest request,
            DirectHandler.EventType type,
            io.helidon.http.Status status,
            io.helidon.http.ServerResponseHeaders headers,
            String message) {
        int code = status.code();
        String problemCode = switch (code) {
            case 431 -> "request_header_fields_too_large";
            case 505 -> "http_version_not_supported";
            default -> code >= 500 ? "internal_error" : "bad_request";
        };
        ProblemException problem = code == 413
                ? Requests.tooLarge()
                : new ProblemException(
                        code, problemCode, status.reasonPhrase(), "The request could not be read as HTTP.", Map.of());
        headers.set(HeaderNames.CONTENT_TYPE, Responses.PROBLEM_JSON);
        // Filters do not run before routing, so the request id every response carries is set here.
        headers.set(
                RequestFilter.REQUEST_ID,
                RequestFilter.requestId(request.headers().first(RequestFilter.REQUEST_ID)));
        return DirectHandler.TransportResponse.builder()
                .status(status)
                .headers(headers)
                .entity(Json.bytes(Responses.problemBody(problem)))
                .build();
    }
}
