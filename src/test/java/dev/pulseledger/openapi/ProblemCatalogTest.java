package dev.pulseledger.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.support.ProblemCatalog;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The catalog of problem codes ({@link ProblemCode}) and the OpenAPI document agree: the document's
 * {@code Problem.code} lists exactly the catalog, and every problem example it shows uses a listed code
 * with that code's status. Every reply a test gets through {@code Api} is checked against the catalog
 * too ({@link ProblemCatalog}), so a test that meets an unlisted code fails.
 */
class ProblemCatalogTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theDocumentsProblemCodeListsExactlyTheCatalog() throws IOException {
        JsonNode code = document().at("/components/schemas/Problem/properties/code");
        Set<String> listed = new TreeSet<>();
        code.path("enum").forEach(value -> listed.add(value.asText()));
        Set<String> catalog = Arrays.stream(ProblemCode.values())
                .map(ProblemCode::code)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(listed).isEqualTo(catalog);
    }

    @Test
    void everyProblemExampleInTheDocumentUsesACatalogCodeWithItsStatus() throws IOException {
        Map<String, Integer> examples = new TreeMap<>();
        collectProblemExamples(document(), examples);
        assertThat(examples).hasSizeGreaterThan(20);
        List<String> wrong = new ArrayList<>();
        examples.forEach((code, status) -> {
            if (!ProblemCatalog.lists(code, status)) {
                wrong.add(code + " " + status);
            }
        });
        assertThat(wrong).isEmpty();
    }

    @Test
    void aReplyWithACodeTheCatalogDoesNotListFailsTheTest() {
        assertThatThrownBy(() -> ProblemCatalog.check(404, "application/problem+json", "{\"code\":\"no_such_code\"}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no_such_code");
        assertThatThrownBy(() -> ProblemCatalog.check(400, "application/problem+json", "{\"code\":\"not_found\"}"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("not_found");
        ProblemCatalog.check(404, "application/problem+json", "{\"code\":\"not_found\"}");
        ProblemCatalog.check(408, "application/problem+json", "{\"code\":\"bad_request\"}");
    }

    /** Every object with a textual code and a numeric status: a problem example. */
    private static void collectProblemExamples(JsonNode node, Map<String, Integer> examples) {
        if (node.isObject()
                && node.path("code").isTextual()
                && node.path("status").isInt()) {
            examples.put(node.get("code").asText(), node.get("status").asInt());
        }
        node.forEach(child -> collectProblemExamples(child, examples));
    }

    private static JsonNode document() throws IOException {
        return JSON.readTree(OpenApiDocument.load());
    }
}
