package dev.pulseledger.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A small HTTP client for tests: one base URL, one X-ApiKey (or none), JSON in and out. */
public final class Api {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private final String baseUrl;
    private final String apiKey;

    public Api(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
    }

    public Reply get(String path) {
        return send("GET", path, null, Map.of());
    }

    public Reply post(String path) {
        return send("POST", path, null, Map.of());
    }

    public Reply post(String path, Object body) {
        return send("POST", path, body, Map.of());
    }

    public Reply put(String path, Object body) {
        return send("PUT", path, body, Map.of());
    }

    public Reply patch(String path, Object body) {
        return send("PATCH", path, body, Map.of());
    }

    public Reply delete(String path) {
        return send("DELETE", path, null, Map.of());
    }

    /** The caller's balance, read through GET /api/tokens/balance. */
    public long balance() {
        Reply reply = get("/api/tokens/balance");
        if (reply.status() != 200) {
            throw new AssertionError("GET /api/tokens/balance: " + reply);
        }
        return reply.json().get("balance").asLong();
    }

    /** Sends any request; a String body is sent as UTF-8, a byte[] body as it is, anything else as JSON. */
    public Reply send(String method, String path, Object body, Map<String, String> headers) {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(60));
        if (apiKey != null) {
            request.header("X-ApiKey", apiKey);
        }
        headers.forEach(request::header);
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            if (!headers.containsKey("Content-Type")) {
                request.header("Content-Type", "application/json");
            }
            request.method(method, publisher(body));
        }
        try {
            HttpResponse<String> response = CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
            ProblemCatalog.check(
                    response.statusCode(),
                    response.headers().firstValue("Content-Type").orElse(""),
                    response.body());
            return new Reply(response.statusCode(), response.headers(), response.body(), parse(response.body()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static HttpRequest.BodyPublisher publisher(Object body) {
        return body instanceof byte[] bytes
                ? HttpRequest.BodyPublishers.ofByteArray(bytes)
                : HttpRequest.BodyPublishers.ofString(text(body));
    }

    private static String text(Object body) {
        if (body instanceof String string) {
            return string;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode parse(String body) {
        try {
            return body == null || body.isEmpty() ? MissingNode.getInstance() : JSON.readTree(body);
        } catch (IOException e) {
            return MissingNode.getInstance();
        }
    }
}
