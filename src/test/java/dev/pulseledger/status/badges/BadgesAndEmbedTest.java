package dev.pulseledger.status.badges;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.StringReader;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * Badges and the embed (CONTRACT §16): badges parse as XML with no script whatever the label,
 * carry an ETag and a 30-second cache life; the embed may be framed only by the configured origins
 * and neither it nor its script sets a cookie.
 */
class BadgesAndEmbedTest {
    private static final String HOSTILE_LABEL = "<script>alert(1)</script>&\"x\"";

    private static TestNode node;

    @BeforeAll
    static void start() {
        node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(),
                "--public-status-page",
                "--status-embed-origins",
                "https://www.example.com,https://docs.example.com");
        Api admin = node.admin();
        admin.post("/admin/service-groups", Map.of("id", "core", "name", "Core"));
        admin.put("/admin/services/api", Map.of("name", "Public API", "groupId", "core"));
        admin.put("/admin/services/db", Map.of("name", "Database", "groupId", "core", "status", "partial_outage"));
        admin.put("/admin/services/hidden", Map.of("name", "Hidden", "public", false));
        admin.post(
                "/admin/incidents",
                Map.of(
                        "title",
                        "Older trouble",
                        "impact",
                        "minor",
                        "message",
                        "Looking.",
                        "services",
                        Map.of("api", "degraded_performance")));
        admin.post(
                "/admin/incidents",
                Map.of(
                        "title",
                        "Database <slow>",
                        "impact",
                        "major",
                        "message",
                        "Looking.",
                        "services",
                        Map.of("db", "partial_outage")));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void everyBadgeIsScriptFreeXmlWithAnEtagAndAShortCacheLife() throws Exception {
        for (String path : new String[] {
            "/status/badge.svg",
            "/status/badge/api.svg",
            "/status/badge/groups/core.svg",
            "/status/badge.svg?style=flat-square",
            "/status/badge/db.svg?label=" + URLEncoder.encode(HOSTILE_LABEL, StandardCharsets.UTF_8)
        }) {
            Reply reply = node.anonymous().get(path);
            assertThat(reply.status()).as(path).isEqualTo(200);
            assertThat(reply.contentType()).startsWith("image/svg+xml");
            assertThat(reply.header("Cache-Control")).contains("max-age=30");
            assertThat(reply.header("Set-Cookie")).isEmpty();
            Document svg = parse(reply.text());
            assertThat(svg.getDocumentElement().getTagName()).isEqualTo("svg");
            assertNoScript(svg.getDocumentElement());
            String etag = reply.header("ETag").orElseThrow();
            Reply again = node.anonymous().send("GET", path, null, Map.of("If-None-Match", etag));
            assertThat(again.status()).as(path).isEqualTo(304);
        }
        Document hostile = parse(node.anonymous()
                .get("/status/badge/db.svg?label=" + URLEncoder.encode(HOSTILE_LABEL, StandardCharsets.UTF_8))
                .text());
        assertThat(hostile.getElementsByTagName("title").item(0).getTextContent())
                .isEqualTo(HOSTILE_LABEL + ": Partial outage");
    }

    @Test
    void aBadgeSaysTheStatusAndTheGroupsRolledUpStatus() throws Exception {
        assertThat(title("/status/badge.svg")).isEqualTo("status: Partial outage");
        assertThat(title("/status/badge/api.svg")).isEqualTo("Public API: Degraded performance");
        assertThat(title("/status/badge/groups/core.svg")).isEqualTo("Core: Partial outage");
        assertThat(title("/status/badge/api.svg?label=uptime")).isEqualTo("uptime: Degraded performance");
        assertThat(node.anonymous().get("/status/badge.svg?style=flat-square").text())
                .doesNotContain("rx=");
        assertThat(node.anonymous().get("/status/badge.svg").text()).contains("rx=\"3\"");
    }

    @Test
    void unknownBadgesAreNotFoundAndBadOptionsAreRefused() {
        assertThat(node.anonymous().get("/status/badge/nope.svg").code()).isEqualTo("service_not_found");
        assertThat(node.anonymous().get("/status/badge/hidden.svg").code()).isEqualTo("service_not_found");
        assertThat(node.anonymous().get("/status/badge/groups/nope.svg").code()).isEqualTo("service_group_not_found");
        assertThat(node.anonymous().get("/status/badge/api.png").status()).isEqualTo(404);
        assertThat(node.anonymous().get("/status/badge.svg?style=plastic").code())
                .isEqualTo("invalid_style");
        assertThat(node.anonymous()
                        .get("/status/badge.svg?label=" + "x".repeat(41))
                        .code())
                .isEqualTo("invalid_label");
    }

    @Test
    void theEmbedMayBeFramedOnlyByTheConfiguredOriginsAndSetsNoCookie() {
        Reply embed = node.anonymous().get("/status/embed");
        assertThat(embed.status()).isEqualTo(200);
        assertThat(embed.header("Content-Security-Policy").orElseThrow())
                .contains("frame-ancestors https://www.example.com https://docs.example.com")
                .contains("default-src 'none'")
                .doesNotContain("script-src");
        assertThat(embed.header("X-Frame-Options")).isEmpty();
        assertThat(embed.header("Set-Cookie")).isEmpty();
        String html = embed.text();
        assertThat(html)
                .contains("<html lang=\"en\">")
                .contains("Partial outage")
                .doesNotContain("<script");
        assertThat(html.indexOf("Database &lt;slow&gt;")).isPositive().isLessThan(html.indexOf("Older trouble"));
        assertThat(html).contains("Affects: Database").contains("Affects: Public API");

        Reply script = node.anonymous().get("/status/embed.js");
        assertThat(script.status()).isEqualTo(200);
        assertThat(script.contentType()).startsWith("text/javascript");
        assertThat(script.header("Set-Cookie")).isEmpty();
        assertThat(script.text())
                .contains("credentials: 'omit'")
                .contains("\"embed.open\":\"Open the status page\"")
                .doesNotContain("/*WORDS*/");

        try (TestNode closed = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page")) {
            assertThat(closed.anonymous()
                            .get("/status/embed")
                            .header("Content-Security-Policy")
                            .orElseThrow())
                    .contains("frame-ancestors 'none'");
        }
    }

    private static String title(String path) throws Exception {
        return parse(node.anonymous().get(path).text())
                .getElementsByTagName("title")
                .item(0)
                .getTextContent();
    }

    /** Parses with a hardened parser: no DTD, no external entities, as a careful client would. */
    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static void assertNoScript(Element element) {
        assertThat(element.getLocalName()).isNotIn("script", "foreignObject", "a", "iframe", "image");
        NamedNodeMap attributes = element.getAttributes();
        for (int i = 0; i < attributes.getLength(); i++) {
            String name = attributes.item(i).getNodeName();
            assertThat(name).doesNotStartWith("on").isNotEqualTo("href").isNotEqualTo("xlink:href");
        }
        NodeList children = element.getChildNodes();
        for (int i = 0; i < children.getLength(); i++) {
            if (children.item(i) instanceof Element child) {
                assertNoScript(child);
            }
        }
    }
}
