package dev.pulseledger.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.pulseledger.http.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.Writer;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The operator commands' HTTP client: one service URL and admin key, JSON in and out, and every
 * failure turned into a {@link CliFailure} with the right exit code.
 */
final class OperatorClient implements AutoCloseable {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

    /** A successful answer: the status, the body as sent and the body parsed (missing when empty). */
    record Answer(int status, String text, JsonNode json) {}

    /** The service's URL without a trailing slash, so that a path prefix behind a proxy is kept. */
    private final String baseUri;

    private final String adminKey;
    private final HttpClient http;

    OperatorClient(URI baseUri, String adminKey) {
        this.baseUri = baseUri.toString().replaceFirst("/+$", "");
        this.adminKey = adminKey;
        this.http = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    Answer get(String path) {
        return exchange("GET", path, Optional.empty());
    }

    Answer delete(String path) {
        return exchange("DELETE", path, Optional.empty());
    }

    Answer post(String path, RequestBody body) {
        return exchange("POST", path, Optional.of(body.fields()));
    }

    Answer put(String path, RequestBody body) {
        return exchange("PUT", path, Optional.of(body.fields()));
    }

    Answer patch(String path, RequestBody body) {
        return exchange("PATCH", path, Optional.of(body.fields()));
    }

    /**
     * GETs a file the service streams (an export, not JSON) and copies it into {@code sink} as it comes,
     * with no size limit; a refusal or failure is read as a problem like any other answer.
     */
    void download(String path, String accept, Writer sink) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUri + path))
                .timeout(REQUEST_TIMEOUT)
                .header("X-ApiKey", adminKey)
                .header("Accept", accept + ", application/problem+json")
                .header("User-Agent", "pulseledger-cli")
                .GET()
                .build();
        HttpResponse<InputStream> response = send(request);
        if (response.statusCode() >= 300) {
            throw refusedOrFailed(response.statusCode(), parse(read(response), response.statusCode()));
        }
        try (Reader body = new InputStreamReader(response.body(), StandardCharsets.UTF_8)) {
            body.transferTo(sink);
        } catch (IOException e) {
            throw unavailable("the answer from " + baseUri + " broke off (" + describe(e) + ")");
        }
    }

    /** One path segment from user input, percent-encoded so it cannot change the path. */
    static String segment(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private Answer exchange(String method, String path, Optional<Map<String, Object>> body) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUri + path))
                .timeout(REQUEST_TIMEOUT)
                .header("X-ApiKey", adminKey)
                .header("Accept", "application/json, application/problem+json")
                .header("User-Agent", "pulseledger-cli");
        if (body.isPresent()) {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body.get())));
        } else {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        }
        HttpResponse<InputStream> response = send(request.build());
        String text = read(response);
        JsonNode json = parse(text, response.statusCode());
        if (response.statusCode() >= 400) {
            throw refusedOrFailed(response.statusCode(), json);
        }
        return new Answer(response.statusCode(), text, json);
    }

    private HttpResponse<InputStream> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpTimeoutException e) {
            throw unavailable("no answer from " + baseUri + " within " + REQUEST_TIMEOUT.toSeconds() + " s");
        } catch (IOException e) {
            throw unavailable("cannot reach " + baseUri + " (" + describe(e) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("interrupted while waiting for " + baseUri);
        }
    }

    private String read(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            byte[] bytes = in.readNBytes(MAX_RESPONSE_BYTES + 1);
            if (bytes.length > MAX_RESPONSE_BYTES) {
                throw unavailable("the answer from " + baseUri + " is larger than " + MAX_RESPONSE_BYTES + " bytes");
            }
            return new String(bytes, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw unavailable("the answer from " + baseUri + " broke off (" + describe(e) + ")");
        }
    }

    private JsonNode parse(String text, int status) {
        if (text.isEmpty()) {
            return MissingNode.getInstance();
        }
        try {
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw unavailable("HTTP " + status + " from " + baseUri + " with a body that is not JSON");
        }
    }

    private CliFailure refusedOrFailed(int status, JsonNode problem) {
        int exitCode = status < 500 ? ExitCodes.REFUSED : ExitCodes.UNAVAILABLE;
        String detail = problem.path("detail").asText("");
        String code = problem.path("code").asText("");
        if (detail.isEmpty() || code.isEmpty()) {
            return new CliFailure(exitCode, "HTTP " + status + " from " + baseUri);
        }
        return new CliFailure(exitCode, detail + " (" + code + ", HTTP " + status + ")");
    }

    private static CliFailure unavailable(String message) {
        return new CliFailure(ExitCodes.UNAVAILABLE, message);
    }

    /** Why a connection failed, in words; the JDK often leaves the messages empty. */
    private static String describe(IOException e) {
        boolean unresolved = false;
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null && !cause.getMessage().isBlank()) {
                return cause.getMessage();
            }
            unresolved |= cause instanceof UnresolvedAddressException;
        }
        if (unresolved) {
            return "unknown host";
        }
        return e instanceof ConnectException
                ? "connection refused"
                : e.getClass().getSimpleName();
    }

    @Override
    public void close() {
        http.close();
    }
}
