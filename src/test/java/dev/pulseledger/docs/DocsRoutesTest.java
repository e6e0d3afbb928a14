package dev.pulseledger.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** /docs serves Swagger UI from the node itself, a fixed set of files, under a strict policy. */
class DocsRoutesTest {
    @Test
    void servesThePageAndItsAssetsLocallyAndNothingElse() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api anonymous = node.anonymous();
            Reply page = anonymous.get("/docs");
            assertThat(page.status()).isEqualTo(200);
            assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
            assertThat(page.text())
                    .contains("<script src=\"docs/swagger-ui-bundle.js\"></script>")
                    .doesNotContain("https://");
            assertThat(page.header("Content-Security-Policy").orElseThrow())
                    .contains("script-src 'self'")
                    .doesNotContain("unsafe-inline")
                    .doesNotContain("unsafe-eval");

            Map<String, String> assets = Map.of(
                    "swagger-ui-bundle.js", "text/javascript",
                    "docs.js", "text/javascript",
                    "swagger-ui.css", "text/css",
                    "favicon-32x32.png", "image/png");
            assets.forEach((name, type) -> {
                Reply asset = anonymous.get("/docs/" + name);
                assertThat(asset.status()).as(name).isEqualTo(200);
                assertThat(asset.contentType()).as(name).startsWith(type);
                String etag = asset.header("ETag").orElseThrow();
                assertThat(anonymous
                                .send("GET", "/docs/" + name, null, Map.of("If-None-Match", etag))
                                .status())
                        .as(name + " revalidated")
                        .isEqualTo(304);
            });

            for (String path :
                    new String[] {"/docs/index.html", "/docs/..%2Fpom.xml", "/docs/swagger-initializer.js"}) {
                Reply missing = anonymous.get(path);
                assertThat(missing.status()).as(path).isEqualTo(404);
                assertThat(missing.code()).as(path).isEqualTo("not_found");
            }
        }
    }

    @Test
    void theFrontDoorLeadsToTheReferenceWhenTheStatusPageIsOff() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Reply front = node.anonymous().get("/");
            assertThat(front.status()).isEqualTo(302);
            assertThat(front.header("Location")).contains("/docs");
        }
    }

    @Test
    void theFrontDoorLeadsToTheStatusPageWhenItIsOn() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page")) {
            Reply front = node.anonymous().get("/");
            assertThat(front.status()).isEqualTo(302);
            assertThat(front.header("Location")).contains("/status");
        }
    }

    @Test
    void theOpenApiDocumentDescribesTheNewPages() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Reply document = node.anonymous().get("/openapi.json");
            for (String path : new String[] {"/status", "/status/status.css", "/docs", "/docs/{asset}"}) {
                assertThat(document.json().path("paths").has(path)).as(path).isTrue();
            }
        }
    }
}
