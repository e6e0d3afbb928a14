package dev.pulseledger.status.pulse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** GET /api/pulse answers 304 while the feed is unchanged, and a new ETag once it changes. */
class PulseConditionalGetTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anUnchangedFeedIs304AndAChangedOneIs200WithANewTag(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            node.admin().put("/admin/services/api", Map.of("name", "Public API", "spotlighted", true));
            Api caller = node.caller(new Fixtures(node).caller(0).key());

            Reply first = caller.get("/api/pulse");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.header("Cache-Control")).contains("private, no-cache");
            String etag = first.header("ETag").orElseThrow();

            Reply unchanged = ifNoneMatch(caller, etag);
            assertThat(unchanged.status()).isEqualTo(304);
            assertThat(unchanged.text()).isEmpty();
            assertThat(unchanged.header("ETag")).contains(etag);
            assertThat(unchanged.header("Cache-Control")).contains("private, no-cache");

            assertThat(node.admin()
                            .patch("/admin/services/api", Map.of("status", "major_outage"))
                            .status())
                    .isEqualTo(200);
            Reply changed = ifNoneMatch(caller, etag);
            assertThat(changed.status()).isEqualTo(200);
            assertThat(changed.json().at("/services/0/status").asText()).isEqualTo("major_outage");
            String newEtag = changed.header("ETag").orElseThrow();
            assertThat(newEtag).isNotEqualTo(etag);
            assertThat(ifNoneMatch(caller, newEtag).status()).isEqualTo(304);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void weakTagsListsAndTheWildcardMatchButOtherTagsDoNot(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api caller = node.caller(new Fixtures(node).caller(0).key());
            String etag = caller.get("/api/pulse").header("ETag").orElseThrow();

            assertThat(ifNoneMatch(caller, "W/" + etag).status()).isEqualTo(304);
            assertThat(ifNoneMatch(caller, "\"other\", W/\"a,b\", " + etag).status())
                    .isEqualTo(304);
            assertThat(ifNoneMatch(caller, "*").status()).isEqualTo(304);
            assertThat(ifNoneMatch(caller, "\"other\"").status()).isEqualTo(200);
            assertThat(ifNoneMatch(caller, etag.replace("\"", "")).status()).isEqualTo(200);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aMatchingTagNeverStandsInForAValidKey(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api caller = node.caller(new Fixtures(node).caller(0).key());
            String etag = caller.get("/api/pulse").header("ETag").orElseThrow();

            Reply stranger =
                    node.caller("pl_not-a-real-key").send("GET", "/api/pulse", null, Map.of("If-None-Match", etag));
            assertThat(stranger.status()).isEqualTo(401);
            assertThat(stranger.code()).isEqualTo("invalid_api_key");
            assertThat(stranger.header("Cache-Control")).contains("no-store");
        }
    }

    private static Reply ifNoneMatch(Api caller, String tags) {
        return caller.send("GET", "/api/pulse", null, Map.of("If-None-Match", tags));
    }
}
