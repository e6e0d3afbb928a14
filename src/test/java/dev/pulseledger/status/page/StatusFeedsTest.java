package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.rometools.rome.feed.synd.SyndEntry;
import com.rometools.rome.feed.synd.SyndFeed;
import com.rometools.rome.io.SyndFeedInput;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.StatuspageSchema;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.StringReader;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.xml.sax.InputSource;

/**
 * The status page's feeds for other tools: the Statuspage-compatible JSON checked against the shapes
 * of Statuspage's public v2 API, and the Atom feed read by a standard Atom parser (ROME).
 */
class StatusFeedsTest {
    private static final String V2 = "/status/api/v2/";
    private static final String HOSTILE_TITLE = "Errors <b>&</b> \"timeouts\"";

    private static TestNode node;
    private static String active;
    private static String resolved;
    private static String hidden;

    @BeforeAll
    static void start() {
        TestClock clock = new TestClock(Instant.parse("2026-11-20T09:00:00Z"));
        node = TestNode.start(
                TestNode.config(
                        TestStore.SQLITE.newDatabaseUrl(), "--public-status-page", "--status-page-name", "Acme"),
                clock);
        Api admin = node.admin();
        admin.put("/admin/services/api", Map.of("name", "Public API", "spotlighted", true));
        admin.put("/admin/services/search", Map.of("name", "Search", "status", "unknown"));
        admin.put("/admin/services/internal", Map.of("name", "Internal queue", "public", false));
        clock.set(Instant.parse("2026-11-21T10:00:00Z"));
        resolved = open(admin, "Slow search", "minor", Map.of("search", "degraded_performance"));
        clock.set(Instant.parse("2026-11-21T11:00:00Z"));
        admin.post(
                "/admin/incidents/" + resolved + "/updates",
                Map.of("status", "resolved", "message", "Back to normal.", "services", Map.of("search", "unknown")));
        hidden = open(admin, "Queue backlog", "major", Map.of("internal", "major_outage"));
        clock.set(Instant.parse("2026-11-22T08:00:00Z"));
        active = open(admin, HOSTILE_TITLE, "major", Map.of("api", "partial_outage", "internal", "major_outage"));
        admin.post(
                "/admin/maintenances",
                Map.of(
                        "title", "Search upgrade",
                        "services", List.of("search", "internal"),
                        "startsAt", "2026-11-28T02:00:00Z",
                        "endsAt", "2026-11-28T03:00:00Z"));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"summary.json", "status.json", "components.json", "incidents.json", "scheduled-maintenances.json"
            })
    void everyDocumentHasTheShapeOfStatuspagesPublicV2Api(String document) {
        Reply reply = node.anonymous().get(V2 + document);

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        assertThat(reply.header("Access-Control-Allow-Origin")).contains("*");
        assertThat(reply.header("Cache-Control")).contains("public, max-age=5");
        assertThat(violations(document, reply.json())).isEmpty();
        assertThat(reply.json().at("/page/name").asText()).isEqualTo("Acme");
        assertThat(reply.text()).doesNotContain("internal").doesNotContain(hidden);
    }

    @Test
    void theShapeCheckRefusesWhatStatuspageClientsWouldNotRead() {
        ObjectNode summary =
                (ObjectNode) node.anonymous().get(V2 + "summary.json").json().deepCopy();
        ((ObjectNode) summary.at("/components/0")).put("status", "unknown");
        ((ObjectNode) summary.at("/status")).remove("indicator");
        ((ObjectNode) summary.at("/incidents/0")).put("created_at", "yesterday");

        assertThat(violations("summary.json", summary)).hasSize(3);
    }

    @Test
    void theSummaryCarriesTheStatusComponentsUnresolvedIncidentsAndUpcomingMaintenance() {
        JsonNode summary = node.anonymous().get(V2 + "summary.json").json();

        assertThat(summary.at("/status/indicator").asText()).isEqualTo("major");
        assertThat(summary.at("/status/description").asText()).isEqualTo("Partial System Outage");
        assertThat(ids(summary.get("components"))).containsExactly("api", "search");
        // Statuspage knows no "unknown": it reads as degraded performance.
        assertThat(summary.at("/components/1/status").asText()).isEqualTo("degraded_performance");
        assertThat(ids(summary.get("incidents"))).containsExactly(active);
        assertThat(summary.at("/incidents/0/name").asText()).isEqualTo(HOSTILE_TITLE);
        assertThat(ids(summary.at("/incidents/0/components"))).containsExactly("api");
        assertThat(summary.at("/scheduled_maintenances/0/status").asText()).isEqualTo("scheduled");
        assertThat(summary.at("/scheduled_maintenances/0/impact").asText()).isEqualTo("maintenance");
        assertThat(summary.at("/scheduled_maintenances/0/scheduled_for").asText())
                .isEqualTo("2026-11-28T02:00:00Z");
        assertThat(ids(summary.at("/scheduled_maintenances/0/components"))).containsExactly("search");

        JsonNode incidents = node.anonymous().get(V2 + "incidents.json").json();
        assertThat(ids(incidents.get("incidents"))).containsExactly(active, resolved);
        assertThat(incidents.at("/incidents/1/resolved_at").asText()).isEqualTo("2026-11-21T11:00:00Z");
        assertThat(incidents.at("/incidents/1/incident_updates/0/body").asText())
                .isEqualTo("Back to normal.");
    }

    @Test
    void theAtomFeedParsesWithAStandardAtomParserAndCarriesThePublicIncidents() throws Exception {
        Reply reply = node.anonymous().get("/status/feed.atom");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).isEqualTo("application/atom+xml; charset=utf-8");

        SyndFeed feed = new SyndFeedInput().build(new InputSource(new StringReader(reply.text())));

        assertThat(feed.getFeedType()).isEqualTo("atom_1.0");
        assertThat(feed.getTitle()).isEqualTo("Acme status incidents");
        assertThat(feed.getUri()).startsWith("urn:uuid:");
        assertThat(feed.getPublishedDate()).isEqualTo(Date.from(Instant.parse("2026-11-22T08:00:00Z")));
        List<SyndEntry> entries = feed.getEntries();
        assertThat(entries).extracting(SyndEntry::getTitle).containsExactly(HOSTILE_TITLE, "Slow search");
        assertThat(entries)
                .extracting(SyndEntry::getUri)
                .doesNotHaveDuplicates()
                .allMatch(u -> u.startsWith("urn:uuid:"));
        assertThat(entries.get(1).getUpdatedDate()).isEqualTo(Date.from(Instant.parse("2026-11-21T11:00:00Z")));
        assertThat(entries.get(1).getContents().getFirst().getValue())
                .startsWith("Resolved (2026-11-21T11:00:00Z): Back to normal.");
        assertThat(entries.get(0).getDescription().getValue())
                .contains("Affects: Public API")
                .doesNotContain("Internal");
        assertThat(reply.text()).doesNotContain(hidden);
    }

    @Test
    void aServicesAtomFeedCarriesOnlyTheIncidentsThatNameIt() throws Exception {
        Reply reply = node.anonymous().get("/status/feed.atom?service=search");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).isEqualTo("application/atom+xml; charset=utf-8");

        SyndFeed feed = new SyndFeedInput().build(new InputSource(new StringReader(reply.text())));

        assertThat(feed.getTitle()).isEqualTo("Acme status incidents: Search");
        assertThat(feed.getEntries()).extracting(SyndEntry::getTitle).containsExactly("Slow search");
        assertThat(reply.text()).contains("href=\"/status/feed.atom?service=search\"");
        SyndFeed whole = new SyndFeedInput()
                .build(new InputSource(new StringReader(
                        node.anonymous().get("/status/feed.atom").text())));
        assertThat(feed.getUri()).startsWith("urn:uuid:").isNotEqualTo(whole.getUri());
        assertThat(new SyndFeedInput()
                        .build(new InputSource(new StringReader(node.anonymous()
                                .get("/status/feed.atom?service=api")
                                .text())))
                        .getEntries())
                .extracting(SyndEntry::getTitle)
                .containsExactly(HOSTILE_TITLE);
    }

    @Test
    void aFeedForAnUnknownOrPrivateServiceIsNotFound() {
        for (String service : List.of("nope", "internal", "")) {
            Reply reply = node.anonymous().get("/status/feed.atom?service=" + service);
            assertThat(reply.status()).as(service).isEqualTo(404);
            assertThat(reply.code()).as(service).isEqualTo("service_not_found");
        }
    }

    @Test
    void theFeedsAreOnlyThereWhenTheStatusPageIsOn() {
        try (TestNode off = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            for (String path : Set.of("/status/feed.atom", V2 + "summary.json", V2 + "incidents.json")) {
                assertThat(off.anonymous().get(path).code()).as(path).isEqualTo("not_found");
            }
        }
    }

    private static List<String> violations(String document, JsonNode body) {
        return StatuspageSchema.violations(document, body);
    }

    private static String open(Api admin, String title, String impact, Map<String, String> services) {
        Reply reply = admin.post(
                "/admin/incidents",
                Map.of("title", title, "impact", impact, "message", "Looking into it.", "services", services));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    private static List<String> ids(JsonNode items) {
        List<String> ids = new ArrayList<>();
        items.forEach(item -> ids.add(item.get("id").asText()));
        return ids;
    }
}
