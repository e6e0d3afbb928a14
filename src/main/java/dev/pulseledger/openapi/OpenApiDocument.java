package dev.pulseledger.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The OpenAPI 3.1 document, assembled once at start from one fragment per feature
 * ({@code openapi/<feature>.json}), so each feature documents its own paths next to the others.
 *
 * <p>What CONTRACT §1 promises for every endpoint is added here rather than repeated in each
 * fragment: the {@code X-Request-Id} request parameter and response header, a {@code default}
 * problem response for unexpected failures, 405 on every operation, and 429 with {@code Retry-After}
 * and {@code RateLimit-*} on every rate-limited (caller) operation.
 */
public final class OpenApiDocument {
    /** The fragments merged into the base document, in order. */
    private static final List<String> FRAGMENTS = List.of(
            "health",
            "pulse",
            "tokens",
            "reservations",
            "admin",
            "statuspage",
            "events",
            "status",
            "ratelimit",
            "console",
            "usage",
            "status-plus",
            "subscribers",
            "operators",
            "sla");

    private static final Set<String> OPERATIONS = Set.of("get", "put", "post", "delete", "patch");
    private static final String REQUEST_ID = "X-Request-Id";
    private static final Map<String, String> RATE_LIMIT_HEADERS = Map.of(
            "Retry-After", "RetryAfter",
            "RateLimit-Limit", "RateLimitLimit",
            "RateLimit-Remaining", "RateLimitRemaining",
            "RateLimit-Reset", "RateLimitReset");

    private OpenApiDocument() {}

    /** Writes the document to the file named by {@code args[0]}: the build generates a test client from it. */
    public static void main(String[] args) throws IOException {
        java.nio.file.Files.write(java.nio.file.Path.of(args[0]), load());
    }

    /** The whole document as JSON bytes. */
    public static byte[] load() {
        ObjectNode document = (ObjectNode) read("base");
        for (String fragment : FRAGMENTS) {
            merge(document, read(fragment), fragment);
        }
        addCommonParts(document);
        return Json.bytes(document);
    }

    /** Adds a fragment's paths, components and tags; a name defined twice is a bug, so it fails. */
    private static void merge(ObjectNode document, JsonNode fragment, String name) {
        addAll((ObjectNode) document.get("paths"), fragment.path("paths"), name + ": path ");
        if (fragment.has("webhooks")) {
            ObjectNode webhooks =
                    document.has("webhooks") ? (ObjectNode) document.get("webhooks") : document.putObject("webhooks");
            addAll(webhooks, fragment.get("webhooks"), name + ": webhook ");
        }
        ObjectNode components = (ObjectNode) document.get("components");
        for (Map.Entry<String, JsonNode> section : fragment.path("components").properties()) {
            ObjectNode target = components.has(section.getKey())
                    ? (ObjectNode) components.get(section.getKey())
                    : components.putObject(section.getKey());
            addAll(target, section.getValue(), name + ": components." + section.getKey() + ".");
        }
        if (fragment.path("tags").isArray()) {
            ((ArrayNode) document.get("tags")).addAll((ArrayNode) fragment.get("tags"));
        }
    }

    private static void addAll(ObjectNode target, JsonNode additions, String what) {
        for (Map.Entry<String, JsonNode> entry : additions.properties()) {
            if (target.has(entry.getKey())) {
                throw new IllegalStateException("OpenAPI fragment " + what + entry.getKey() + " is defined twice");
            }
            target.set(entry.getKey(), entry.getValue());
        }
    }

    private static void addCommonParts(ObjectNode document) {
        for (Map.Entry<String, JsonNode> pathItem : document.get("paths").properties()) {
            for (Map.Entry<String, JsonNode> operation : pathItem.getValue().properties()) {
                if (OPERATIONS.contains(operation.getKey())) {
                    addOperationParts((ObjectNode) operation.getValue());
                    addRefusals(
                            pathItem.getKey(), (ObjectNode) operation.getValue().get("responses"));
                }
            }
        }
        for (JsonNode response : document.path("components").path("responses")) {
            addRequestIdHeader((ObjectNode) response);
        }
    }

    private static void addOperationParts(ObjectNode operation) {
        ArrayNode parameters = operation.has("parameters")
                ? (ArrayNode) operation.get("parameters")
                : operation.putArray("parameters");
        parameters.addObject().put("$ref", "#/components/parameters/RequestId");
        ObjectNode responses = (ObjectNode) operation.get("responses");
        if (!responses.has("default")) {
            responses.putObject("default").put("$ref", "#/components/responses/UnexpectedError");
        }
        for (JsonNode response : responses) {
            if (!response.has("$ref")) {
                addRequestIdHeader((ObjectNode) response);
            }
        }
    }

    /**
     * Every path answers 405 to a method it lacks, and every caller path may answer 429 when the key
     * is over its plan's rate limit (RateLimitFilter runs before the route), with the RateLimit headers.
     */
    private static void addRefusals(String path, ObjectNode responses) {
        if (!responses.has("405")) {
            responses.putObject("405").put("$ref", "#/components/responses/MethodNotAllowed");
        }
        if (!path.startsWith("/api/")) {
            return;
        }
        if (!responses.has("429")) {
            responses.putObject("429").put("$ref", "#/components/responses/RateLimited");
            return;
        }
        ObjectNode own = (ObjectNode) responses.get("429");
        ObjectNode headers = own.has("headers") ? (ObjectNode) own.get("headers") : own.putObject("headers");
        RATE_LIMIT_HEADERS.forEach((name, component) -> {
            if (!headers.has(name)) {
                headers.putObject(name).put("$ref", "#/components/headers/" + component);
            }
        });
    }

    private static void addRequestIdHeader(ObjectNode response) {
        ObjectNode headers =
                response.has("headers") ? (ObjectNode) response.get("headers") : response.putObject("headers");
        if (!headers.has(REQUEST_ID)) {
            headers.putObject(REQUEST_ID).put("$ref", "#/components/headers/RequestId");
        }
    }

    private static JsonNode read(String fragment) {
        String resource = "/openapi/" + fragment + ".json";
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("The OpenAPI fragment " + resource + " is missing");
            }
            return Json.mapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
