package dev.pulseledger.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one configured Jackson mapper, with limits on what a request body may contain. */
public final class Json {
    /** Deep nesting is never needed by this API and is a classic parser attack. */
    public static final int MAX_NESTING_DEPTH = 16;

    public static final int MAX_STRING_LENGTH = 64 * 1024;

    private static final ObjectMapper MAPPER = createMapper();

    private Json() {}

    private static ObjectMapper createMapper() {
        JsonMapper mapper = JsonMapper.builder()
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
                .build();
        mapper.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(MAX_NESTING_DEPTH)
                        .maxStringLength(MAX_STRING_LENGTH)
                        .maxNumberLength(40)
                        .build());
        return mapper;
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static byte[] bytes(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Response could not be serialised", e);
        }
    }

    /** Parses a request body; anything that is not one well-formed JSON object is a 400. */
    public static JsonNode parseObject(byte[] body) {
        if (body.length == 0) {
            throw ProblemException.badRequest("invalid_json", "The request body must be a JSON object.");
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw ProblemException.badRequest(
                    "invalid_json", "The request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (node == null || !node.isObject()) {
            throw ProblemException.badRequest("invalid_json", "The request body must be a JSON object.");
        }
        return node;
    }
}
