package dev.pulseledger.openapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.pulseledger.http.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The OpenAPI 3.1 document, assembled once at start from one fragment per feature
 * ({@code openapi/<feature>.json}), so each feature documents its own paths next to the others.
 */
public final class OpenApiDocument {
    /** The fragments merged into the base document, in order. */
    private static final List<String> FRAGMENTS = List.of("statuspage");

    private OpenApiDocument() {}

    /** The whole document as JSON bytes. */
    public static byte[] load() {
        ObjectNode document = (ObjectNode) read("base");
        for (String fragment : FRAGMENTS) {
            merge(document, read(fragment));
        }
        return Json.bytes(document);
    }

    private static void merge(ObjectNode document, JsonNode fragment) {
        ((ObjectNode) document.get("paths")).setAll((ObjectNode) fragment.path("paths"));
        JsonNode schemas = fragment.path("components").path("schemas");
        if (schemas.isObject()) {
            ((ObjectNode) document.get("components").get("schemas")).setAll((ObjectNode) schemas);
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
