package dev.pulseledger.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.support.ExternalTool;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Redocly CLI, with its recommended rules (redocly.yaml), finds no error and no warning in the served document. */
class OpenApiLintTest {
    private static final String INSTALL = "npm install @redocly/cli (.ci/run installs it and puts it on PATH)";

    @TempDir
    Path temp;

    @Test
    void redoclyFindsNoErrorAndNoWarning() throws IOException {
        ExternalTool redocly = ExternalTool.require("redocly", INSTALL);
        Path document = temp.resolve("openapi.json");
        try (TestNode node =
                TestNode.start(TestStore.SQLITE.newDatabaseUrl(), OpenApiDocumentTest.OPTIONAL_FEATURES_ON)) {
            Files.writeString(document, node.anonymous().get("/openapi.json").text());
        }
        ExternalTool.Result result = redocly.run(
                "",
                "lint",
                "--config",
                Path.of("redocly.yaml").toAbsolutePath().toString(),
                "--format=json",
                document.toString());
        JsonNode report = new ObjectMapper().readTree(result.stdout());
        assertThat(report.path("problems")).as(result.stdout()).isEmpty();
        assertThat(report.path("totals").path("errors").asInt(-1)).isZero();
        assertThat(report.path("totals").path("warnings").asInt(-1)).isZero();
        assertThat(result.exitCode()).isZero();
    }
}
