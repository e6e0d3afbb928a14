package dev.pulseledger.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every schema in the served document is valid JSON Schema 2020-12 (the dialect of OpenAPI 3.1),
 * and every example in it matches the schema it illustrates, so the examples can be trusted.
 */
class OpenApiSchemasTest {
    /** Where the validator finds the document; the reserved .invalid name is never fetched. */
    private static final String DOCUMENT_URI = "https://pulseledger.invalid/openapi.json";

    private static final String META_SCHEMA = "https://json-schema.org/draft/2020-12/schema";

    private static JsonNode document;
    private static JsonSchemaFactory factory;

    @BeforeAll
    static void fetchDocument() {
        try (TestNode node =
                TestNode.start(TestStore.SQLITE.newDatabaseUrl(), OpenApiDocumentTest.OPTIONAL_FEATURES_ON)) {
            var served = node.anonymous().get("/openapi.json");
            document = served.json();
            factory = JsonSchemaFactory.getInstance(
                    SpecVersion.VersionFlag.V202012,
                    builder -> builder.schemaLoaders(loaders -> loaders.schemas(Map.of(DOCUMENT_URI, served.text()))));
        }
    }

    @Test
    void everyComponentSchemaIsValidJsonSchema() {
        JsonSchema metaSchema = factory.getSchema(SchemaLocation.of(META_SCHEMA));
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> schema :
                document.path("components").path("schemas").properties()) {
            metaSchema.validate(schema.getValue()).forEach(m -> problems.add(schema.getKey() + ": " + m.getMessage()));
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void everyExampleMatchesItsSchema() {
        List<String> problems = new ArrayList<>();
        int checked = checkExamples(document, "", problems);
        assertThat(problems).isEmpty();
        assertThat(checked).as("examples checked").isGreaterThan(50);
    }

    /** Walks the document; returns how many examples it checked. */
    private static int checkExamples(JsonNode node, String pointer, List<String> problems) {
        int checked = 0;
        if (node.isObject()) {
            if (node.path("schema").isObject()) {
                String schemaPointer = pointer + "/schema";
                if (node.has("example")) {
                    checked += check(schemaPointer, node.get("example"), pointer + "/example", problems);
                }
                for (Map.Entry<String, JsonNode> example : node.path("examples").properties()) {
                    JsonNode value = resolve(example.getValue()).get("value");
                    checked += check(schemaPointer, value, pointer + "/examples/" + example.getKey(), problems);
                }
            }
            if (node.path("examples").isArray() && !pointer.isEmpty()) {
                for (JsonNode example : node.get("examples")) {
                    checked += check(pointer, example, pointer + "/examples", problems);
                }
            }
            for (Map.Entry<String, JsonNode> child : node.properties()) {
                checked += checkExamples(child.getValue(), pointer + "/" + escape(child.getKey()), problems);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                checked += checkExamples(node.get(i), pointer + "/" + i, problems);
            }
        }
        return checked;
    }

    private static int check(String schemaPointer, JsonNode example, String where, List<String> problems) {
        JsonSchema schema = factory.getSchema(SchemaLocation.of(DOCUMENT_URI + "#" + uriFragment(schemaPointer)));
        Set<ValidationMessage> messages = schema.validate(example);
        messages.forEach(m -> problems.add(where + ": " + m.getMessage()));
        return 1;
    }

    private static JsonNode resolve(JsonNode node) {
        return node.has("$ref") ? document.at(node.get("$ref").asText().substring(1)) : node;
    }

    /** A JSON pointer as a URI fragment (RFC 6901 §6): characters a fragment may not hold are percent-encoded. */
    private static String uriFragment(String pointer) {
        StringBuilder fragment = new StringBuilder();
        for (byte b : pointer.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((Character.isLetterOrDigit(c) && c < 128) || "-._~/!$&'()*+,;=:@".indexOf(c) >= 0) {
                fragment.append(c);
            } else {
                fragment.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return fragment.toString();
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
