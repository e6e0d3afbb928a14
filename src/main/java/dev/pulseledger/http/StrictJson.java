package dev.pulseledger.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a request body as one JSON object, strictly: UTF-8 only (no overlong forms, no encoded
 * surrogates), no unpaired surrogate even as a {@code \\u} escape, no name twice, nothing after the
 * object. Every refusal is a 400 {@code invalid_json} in our own words, naming the field where there
 * is one, so a stored string is always exactly the one the client sent.
 */
final class StrictJson {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StrictJson() {}

    static ObjectNode parseObject(byte[] body) {
        if (body.length == 0) {
            throw notAnObject();
        }
        requireUtf8(body);
        JsonParser parser = parser(body);
        try (parser) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw notAnObject();
            }
            ObjectNode object = readObject(parser);
            if (parser.nextToken() != null) {
                throw invalid("The request body must hold one JSON object and nothing after it.");
            }
            return object;
        } catch (StreamConstraintsException e) {
            throw invalid("The request body goes past a limit: JSON nested deeper than " + Json.MAX_NESTING_DEPTH
                    + ", a string longer than " + Json.MAX_STRING_LENGTH + " characters, or a number longer than "
                    + Json.MAX_NUMBER_LENGTH + " digits.");
        } catch (JsonProcessingException e) {
            throw invalid("The request body is not valid JSON" + where(e.getLocation(), parser) + ".");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonParser parser(byte[] body) {
        try {
            return Json.mapper().createParser(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode readObject(JsonParser parser) throws IOException {
        ObjectNode object = NODES.objectNode();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
            String name = parser.currentName();
            requireWholeCharacters(name, name);
            if (object.has(name)) {
                throw invalid("Field '" + Excerpt.of(name) + "' appears more than once.");
            }
            object.set(name, readValue(parser, parser.nextToken(), name));
        }
        return object;
    }

    private static JsonNode readValue(JsonParser parser, JsonToken token, String field) throws IOException {
        return switch (token) {
            case START_OBJECT -> readObject(parser);
            case START_ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                for (JsonToken item = parser.nextToken(); item != JsonToken.END_ARRAY; item = parser.nextToken()) {
                    array.add(readValue(parser, item, field));
                }
                yield array;
            }
            case VALUE_STRING -> NODES.textNode(requireWholeCharacters(parser.getText(), field));
            case VALUE_NUMBER_INT ->
                switch (parser.getNumberType()) {
                    case INT -> NODES.numberNode(parser.getIntValue());
                    case LONG -> NODES.numberNode(parser.getLongValue());
                    default -> NODES.numberNode(parser.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDecimalValue());
            case VALUE_TRUE, VALUE_FALSE -> NODES.booleanNode(token == JsonToken.VALUE_TRUE);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new IllegalStateException("The parser gave " + token + " where a value belongs");
        };
    }

    private static void requireUtf8(byte[] body) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body));
        } catch (CharacterCodingException e) {
            throw invalid("The request body is not valid UTF-8 (overlong forms and encoded surrogates are refused).");
        }
    }

    /** A string with every surrogate in a pair, as UTF-8 can store it. */
    private static String requireWholeCharacters(String text, String field) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw invalid(
                        "Field '" + Excerpt.of(field) + "' holds an unpaired surrogate, which is not a character.");
            }
        }
        return text;
    }

    private static String where(JsonLocation location, JsonParser parser) {
        String at = location == null ? "" : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
        String field;
        try {
            field = parser.currentName();
        } catch (IOException e) {
            field = null;
        }
        return field == null ? at : at + " (field '" + Excerpt.of(field) + "')";
    }

    private static ProblemException notAnObject() {
        return invalid("The request body must be a JSON object.");
    }

    private static ProblemException invalid(String detail) {
        return new ProblemException(ProblemCode.INVALID_JSON, detail);
    }
}
