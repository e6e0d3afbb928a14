package dev.pulseledger.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The shapes of Statuspage's public v2 API as a JSON Schema, and a check of one document against them. */
public final class StatuspageSchema {
    private static final ObjectMapper JSON = new ObjectMapper();

    private StatuspageSchema() {}

    /** What is wrong with {@code body} as the document named {@code document} ({@code summary.json}, …). */
    public static List<String> violations(String document, JsonNode body) {
        ObjectNode schema = (ObjectNode) shapes().deepCopy();
        schema.put("$ref", "#/$defs/" + document);
        JsonSchema validator =
                JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(schema);
        List<String> messages = new ArrayList<>();
        for (ValidationMessage message : validator.validate(body)) {
            messages.add(message.getMessage());
        }
        return messages;
    }

    private static JsonNode shapes() {
        try (InputStream in = StatuspageSchema.class.getResourceAsStream("/statuspage/statuspage-v2.schema.json")) {
            return JSON.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
