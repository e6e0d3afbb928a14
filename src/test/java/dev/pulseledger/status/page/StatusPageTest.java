package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.ServeCommand;
import dev.pulseledger.config.ConfigException;
import dev.pulseledger.config.Settings;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The status page over plain HTTP: off by default, public when on, escaped, strict, cacheable. */
class StatusPageTest {
    @Test
    void isOffByDefaultAndThenAnswersLikeAnyUnknownPath() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            for (String path : new String[] {"/status", "/status/history", "/status/status.css", "/status/status.js"}) {
                Reply reply = node.anonymous().get(path);
                assertThat(reply.status()).as(path).isEqualTo(404);
                assertThat(reply.code()).isEqualTo("not_found");
                assertThat(reply.contentType()).startsWith("application/problem+json");
                Reply post = node.anonymous().post(path);
                assertThat(post.status()).as("POST " + path).isEqualTo(404);
            }
        }
    }

    @Test
    void theFlagAndItsEnvironmentFormTurnItOnAndABadValueIsNamed() {
        assertThat(TestNode.config("jdbc:sqlite:x.db").get(Settings.PUBLIC_STATUS_PAGE))
                .isFalse();
        assertThat(TestNode.config("jdbc:sqlite:x.db", "--public-status-page").get(Settings.PUBLIC_STATUS_PAGE))
                .isTrue();
        assertThat(TestNode.config("jdbc:sqlite:x.db", "--public-status-page=TRUE")
                        .get(Settings.PUBLIC_STATUS_PAGE))
                .isTrue();
        assertThat(TestNode.config("jdbc:sqlite:x.db", "--public-status-page=false")
                        .get(Settings.PUBLIC_STATUS_PAGE))
                .isFalse();
        assertThatThrownBy(() -> ServeCommand.parseConfig("--public-status-page=yes"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--public-status-page / PULSELEDGER_PUBLIC_STATUS_PAGE");
    }

    @Test
    void theProviderNameAndLinkAreSettingsAndABadLinkIsNamed() {
        try (TestNode node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--public-status-page",
                "--status-page-name",
                "Acme <Cloud>",
                "--status-page-url",
                "https://status.acme.example/?a=1&b=2")) {
            String html = node.anonymous().get("/status").text();
            assertThat(html)
                    .contains("<title>Current status · Acme &lt;Cloud&gt; status</title>")
                    .contains("<a href=\"https://status.acme.example/?a=1&amp;b=2\">Acme &lt;Cloud&gt; status</a>");
        }
        assertThatThrownBy(() -> ServeCommand.parseConfig("--status-page-url=javascript:alert(1)"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("--status-page-url / PULSELEDGER_STATUS_PAGE_URL");
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void listsPublicServicesSpotlightedFirstWithOperatorTextEscaped(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), "--public-status-page")) {
            Api admin = node.admin();
            admin.put(
                    "/admin/services/billing",
                    Map.of("name", "<img src=x onerror=alert(1)>", "description", "\"quoted\" & 'single'"));
            admin.put("/admin/services/api", Map.of("name", "Public API", "spotlighted", true, "position", 5));
            admin.put("/admin/services/secret", Map.of("name", "Hidden thing", "public", false));

            Reply page = node.anonymous().get("/status");

            assertThat(page.status()).isEqualTo(200);
            assertThat(page.contentType()).isEqualTo("text/html; charset=utf-8");
            assertThat(page.text())
                    .contains("&lt;img src=x onerror=alert(1)&gt;")
                    .contains("&#34;quoted&#34; &amp; &#39;single&#39;")
                    .doesNotContain("<img")
                    .doesNotContain("Hidden thing")
                    .doesNotContain("<script>");
            assertThat(page.text().indexOf("data-service=\"api\""))
                    .isLessThan(page.text().indexOf("data-service=\"billing\""));
            // Refreshed by its own script, with a plain reload link for browsers without JavaScript.
            assertThat(page.text())
                    .doesNotContain("http-equiv=\"refresh\"")
                    .contains("<script src=\"/status/status.js\" defer></script>")
                    .contains("<a href=\"/status\">Reload this page</a>");
        }
    }

    @Test
    void sendsStrictHeadersAndA304WhileNothingChanged() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page")) {
            node.admin().put("/admin/services/api", Map.of("name", "Public API"));
            Reply page = node.anonymous().get("/status");

            assertThat(page.header("Content-Security-Policy").orElseThrow())
                    .contains("default-src 'none'")
                    .contains("style-src 'self'")
                    .contains("frame-ancestors 'none'")
                    .contains("script-src 'self'")
                    .contains("connect-src 'self'")
                    .doesNotContain("unsafe-inline")
                    .doesNotContain("unsafe-eval");
            assertThat(page.header("X-Content-Type-Options")).contains("nosniff");
            assertThat(page.header("X-Frame-Options")).contains("DENY");
            assertThat(page.header("Referrer-Policy")).contains("no-referrer");
            assertThat(page.header("Cache-Control")).contains("public, max-age=5");
            String etag = page.header("ETag").orElseThrow();

            Api anonymous = node.anonymous();
            assertThat(anonymous
                            .send("GET", "/status", null, Map.of("If-None-Match", etag))
                            .status())
                    .isEqualTo(304);
            node.admin().patch("/admin/services/api", Map.of("status", "partial_outage"));
            Reply changed = anonymous.send("GET", "/status", null, Map.of("If-None-Match", etag));
            assertThat(changed.status()).isEqualTo(200);
            assertThat(changed.text()).contains("Partial outage");
            assertThat(changed.header("ETag").orElseThrow()).isNotEqualTo(etag);

            Reply css = anonymous.get("/status/status.css");
            assertThat(css.status()).isEqualTo(200);
            assertThat(css.contentType()).startsWith("text/css");
            Reply script = anonymous.get("/status/status.js");
            assertThat(script.status()).isEqualTo(200);
            assertThat(script.contentType()).startsWith("text/javascript");
        }
    }
}
