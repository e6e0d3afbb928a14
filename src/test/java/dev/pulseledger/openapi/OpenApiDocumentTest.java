package dev.pulseledger.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.SoftAssertions.assertSoftly;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.http.RouteTable;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The served OpenAPI document is valid 3.1 and documents exactly the routes the node serves. */
class OpenApiDocumentTest {
    private static final Set<String> OPERATIONS = Set.of("get", "put", "post", "delete", "patch");
    private static final Pattern PATH_PARAMETER = Pattern.compile("\\{([^}]+)}");

    /** Every route that can exist must be documented, so the node runs with every optional feature on. */
    static final String[] OPTIONAL_FEATURES_ON = {
        "--public-status-page",
        "--smtp-url",
        "smtp://127.0.0.1:25",
        "--mail-from",
        "status@example.com",
        "--status-base-url",
        "https://status.example.com"
    };

    private static TestNode node;
    private static Reply served;

    @BeforeAll
    static void startNode() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), OPTIONAL_FEATURES_ON);
        served = node.anonymous().get("/openapi.json");
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @Test
    void theDocumentIsServedWithoutAKeyAsOpenApi31() {
        assertThat(served.status()).isEqualTo(200);
        assertThat(served.contentType()).startsWith("application/json");
        assertThat(served.json().path("openapi").asText()).matches("3\\.1\\.\\d+");
    }

    @Test
    void aValidatingParserReadsTheDocumentWithoutComplaint() {
        ParseOptions options = new ParseOptions();
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIV3Parser().readContents(served.text(), null, options);
        assertThat(result.getMessages()).isEmpty();
        assertThat(result.getOpenAPI().getSpecVersion().name()).isEqualTo("V31");
    }

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedOperationIsRouted() {
        Set<String> routed = node.application().routes().stream()
                .filter(route -> !route.method().equals("HEAD"))
                .map(OpenApiDocumentTest::describe)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> documented = new TreeSet<>();
        for (Map.Entry<String, JsonNode> path : served.json().get("paths").properties()) {
            for (String method : operationMethods(path.getValue())) {
                documented.add(method.toUpperCase(Locale.ROOT) + " " + path.getKey());
            }
        }
        assertSoftly(softly -> {
            softly.assertThat(difference(routed, documented))
                    .as("routed but not documented")
                    .isEmpty();
            softly.assertThat(difference(documented, routed))
                    .as("documented but not routed")
                    .isEmpty();
        });
    }

    @Test
    void serversAreRelativeSoTheDocsPageTriesCallsOnTheNodeThatServedIt() {
        JsonNode servers = served.json().path("servers");
        assertThat(servers.size()).isPositive();
        servers.forEach(server -> assertThat(server.path("url").asText()).startsWith("/"));
    }

    @Test
    void everyOperationHasADescriptionADeclaredTagAnd405() {
        Set<String> declared = new HashSet<>();
        served.json().path("tags").forEach(tag -> {
            assertThat(tag.path("description").asText()).as(tag.toString()).isNotBlank();
            declared.add(tag.path("name").asText());
        });
        forEachOperation((path, method, operation) -> {
            String where = method + " " + path;
            assertThat(operation.path("description").asText()).as(where).isNotBlank();
            assertThat(operation.path("tags").size()).as(where).isPositive();
            operation.path("tags").forEach(tag -> assertThat(declared).as(where).contains(tag.asText()));
            assertThat(operation.path("responses").has("405")).as(where).isTrue();
        });
    }

    @Test
    void everyRateLimitedOperationDeclares429WithRetryAfterAndRateLimitHeaders() {
        forEachOperation((path, method, operation) -> {
            if (!path.startsWith("/api/")) {
                return;
            }
            JsonNode tooMany = resolve(operation.path("responses").path("429"));
            assertThat(tooMany.isMissingNode()).as(method + " " + path).isFalse();
            assertThat(tooMany.path("headers").has("Retry-After"))
                    .as(method + " " + path)
                    .isTrue();
            for (String header : new String[] {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"}) {
                assertThat(tooMany.path("headers").has(header))
                        .as(method + " " + path + " " + header)
                        .isTrue();
            }
        });
    }

    @Test
    void everyReferenceResolves() {
        List<String> unresolved = new ArrayList<>();
        collectUnresolvedReferences(served.json(), unresolved);
        assertThat(unresolved).isEmpty();
    }

    @Test
    void everyOperationHasAUniqueIdDeclaredPathParametersAndAResponse() {
        Set<String> operationIds = new HashSet<>();
        forEachOperation((path, method, operation) -> {
            String where = method + " " + path;
            assertThat(operationIds.add(operation.path("operationId").asText()))
                    .as("unique operationId of " + where)
                    .isTrue();
            assertThat(operation.path("responses").size()).as(where).isPositive();
            Set<String> declared = new HashSet<>();
            JsonNode pathItem = served.json().get("paths").get(path);
            collectPathParameters(pathItem.path("parameters"), declared);
            collectPathParameters(operation.path("parameters"), declared);
            Matcher templateParameters = PATH_PARAMETER.matcher(path);
            while (templateParameters.find()) {
                assertThat(declared).as(where).contains(templateParameters.group(1));
            }
        });
    }

    @Test
    void callerPathsNeedACallerKeyOperatorPathsAnAdminKeyAndProbesNone() {
        JsonNode globalSecurity = served.json().get("security");
        forEachOperation((path, method, operation) -> {
            JsonNode security = operation.has("security") ? operation.get("security") : globalSecurity;
            String scheme =
                    security.isEmpty() ? "none" : security.get(0).fieldNames().next();
            String expected = path.startsWith("/api/") ? "ApiKey" : path.startsWith("/admin/") ? "AdminKey" : "none";
            assertThat(scheme).as(method + " " + path).isEqualTo(expected);
            if (!expected.equals("none")) {
                assertThat(operation.get("responses").has("401"))
                        .as(method + " " + path + " documents its 401")
                        .isTrue();
            }
        });
    }

    @Test
    void everyProblemResponseShowsItsCodeAndEveryResponseCarriesTheRequestId() {
        forEachOperation((path, method, operation) -> {
            for (Map.Entry<String, JsonNode> entry : operation.get("responses").properties()) {
                String where = method + " " + path + " " + entry.getKey();
                JsonNode response = resolve(entry.getValue());
                assertThat(response.path("headers").has("X-Request-Id"))
                        .as(where)
                        .isTrue();
                JsonNode problem = response.path("content").path("application/problem+json");
                if (problem.isMissingNode()) {
                    continue;
                }
                List<JsonNode> examples = new ArrayList<>();
                if (problem.has("example")) {
                    examples.add(problem.get("example"));
                }
                problem.path("examples")
                        .forEach(example -> examples.add(resolve(example).get("value")));
                assertThat(examples).as(where).isNotEmpty();
                for (JsonNode example : examples) {
                    assertThat(example.path("code").asText()).as(where).matches("[a-z][a-z0-9_]*");
                    if (!entry.getKey().equals("default")) {
                        assertThat(example.path("status").asText()).as(where).isEqualTo(entry.getKey());
                    }
                }
            }
        });
    }

    private interface OperationCheck {
        void check(String path, String method, JsonNode operation);
    }

    private static void forEachOperation(OperationCheck check) {
        for (Map.Entry<String, JsonNode> path : served.json().get("paths").properties()) {
            for (String method : operationMethods(path.getValue())) {
                check.check(
                        path.getKey(),
                        method.toUpperCase(Locale.ROOT),
                        path.getValue().get(method));
            }
        }
    }

    private static List<String> operationMethods(JsonNode pathItem) {
        List<String> methods = new ArrayList<>();
        pathItem.fieldNames().forEachRemaining(name -> {
            if (OPERATIONS.contains(name)) {
                methods.add(name);
            }
        });
        return methods;
    }

    /** HEAD, which the route table derives from GET, is not documented separately. */
    private static String describe(RouteTable.Route route) {
        return route.method() + " " + route.pathTemplate();
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> result = new TreeSet<>(a);
        result.removeAll(b);
        return result;
    }

    private static JsonNode resolve(JsonNode node) {
        return node.has("$ref") ? served.json().at(node.get("$ref").asText().substring(1)) : node;
    }

    private static void collectPathParameters(JsonNode parameters, Set<String> names) {
        for (JsonNode parameter : parameters) {
            JsonNode resolved = resolve(parameter);
            if (resolved.path("in").asText().equals("path")) {
                names.add(resolved.path("name").asText());
            }
        }
    }

    private static void collectUnresolvedReferences(JsonNode node, List<String> unresolved) {
        if (node.isObject() && node.path("$ref").isTextual()) {
            String ref = node.get("$ref").asText();
            if (!ref.startsWith("#/") || served.json().at(ref.substring(1)).isMissingNode()) {
                unresolved.add(ref);
            }
        }
        node.forEach(child -> collectUnresolvedReferences(child, unresolved));
    }
}
