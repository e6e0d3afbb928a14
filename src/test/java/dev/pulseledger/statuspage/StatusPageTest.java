package dev.pulseledger.statuspage;

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
            for (String path : new String[] {"/status", "/status/status.css"}) {
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
                    .doesNotContain("<script");
            assertThat(page.text().indexOf("data-service=\"api\""))
                    .isLessThan(page.text().indexOf("data-service=\"billing\""));
            assertThat(page.text()).contains("<meta http-equiv=\"refresh\" content=\"30\">");
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
                    .doesNotContain("script-src")
                    .doesNotContain("unsafe-inline");
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
        }
    }
}
