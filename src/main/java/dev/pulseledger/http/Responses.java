package dev.pulseledger.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;

/** Writes JSON bodies and RFC 9457 problem documents onto Helidon responses. */
public final class Responses {
    public static final String JSON = "application/json";
    public static final String PROBLEM_JSON = "application/problem+json";
    public static final HeaderName LOCATION = HeaderNames.LOCATION;

    private Responses() {}

    public static void json(ServerResponse res, int status, Object body) {
        send(res, status, JSON, Json.bytes(body));
    }

    public static void ok(ServerResponse res, Object body) {
        json(res, 200, body);
    }

    public static void noContent(ServerResponse res) {
        res.status(Status.NO_CONTENT_204);
        res.send();
    }

    public static void problem(ServerResponse res, ProblemException problem) {
        problem.headers().forEach(res::header);
        send(res, problem.status(), PROBLEM_JSON, Json.bytes(ProblemBody.of(problem)));
    }

    public static void send(ServerResponse res, int status, String contentType, byte[] body) {
        res.status(Status.create(status));
        res.header(HeaderNames.CONTENT_TYPE, contentType);
        res.send(body);
    }
}
