package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class WebhookAdminTest {
    private static final String RECEIVER = "https://hooks.example.com/pulseledger";

    private static TestNode node;

    @BeforeAll
    static void startNode() {
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
    }

    @AfterAll
    static void stopNode() {
        node.close();
    }

    @Test
    void theSigningSecretIsShownOnceWhenTheWebhookIsCreated() {
        Reply created = create(Map.of(
                "url", RECEIVER, "events", List.of("service.status_changed", "balance.low"), "description", "ops"));
        assertThat(created.status()).isEqualTo(201);
        String id = created.json().path("id").asText();
        assertThat(id).startsWith("wh_");
        assertThat(created.header("Location")).contains("/admin/webhooks/" + id);
        assertThat(created.json().path("secret").asText()).startsWith("whsec_");
        assertThat(texts(created.json().path("events"))).containsExactly("balance.low", "service.status_changed");

        Reply read = node.admin().get("/admin/webhooks/" + id);
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("url").asText()).isEqualTo(RECEIVER);
        assertThat(read.json().path("description").asText()).isEqualTo("ops");
        assertThat(read.text()).doesNotContain("whsec_");
        Reply list = node.admin().get("/admin/webhooks");
        assertThat(list.text()).contains(id).doesNotContain("whsec_");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ftp://hooks.example.com/x",
                "javascript:alert(1)",
                "/relative/path",
                "https://",
                "https://user:password@hooks.example.com/x",
                "https://hooks.example.com/x#fragment",
                "http://exa mple.com/"
            })
    void aUrlThatIsNotAPlainHttpOrHttpsAddressIsRefused(String url) {
        Reply reply = create(Map.of("url", url, "events", List.of("balance.low")));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("detail").asText()).contains("'url'");
    }

    @Test
    void anOverlongUrlIsRefused() {
        Reply reply = create(Map.of("url", RECEIVER + "?" + "a".repeat(2100), "events", List.of("balance.low")));
        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("detail").asText()).contains("'url'");
    }

    @Test
    void unknownMissingOrEmptyEventListsAreRefusedNamingTheField() {
        for (Object events : List.of(List.of("service.deleted"), List.of(), "balance.low", List.of(1))) {
            Reply reply = create(Map.of("url", RECEIVER, "events", events));
            assertThat(reply.status()).as(events.toString()).isEqualTo(400);
            assertThat(reply.json().path("detail").asText()).contains("'events'");
        }
        Reply missing = create(Map.of("url", RECEIVER));
        assertThat(missing.status()).isEqualTo(400);
        Reply unknownField = create(Map.of("url", RECEIVER, "events", List.of("balance.low"), "secret", "mine"));
        assertThat(unknownField.status()).isEqualTo(400);
        assertThat(unknownField.json().path("detail").asText()).contains("'secret'");
    }

    @Test
    void aDeletedWebhookIsGoneWithItsLog() {
        String id = create(Map.of("url", RECEIVER, "events", List.of("balance.low")))
                .json()
                .path("id")
                .asText();
        assertThat(node.admin().get("/admin/webhooks/" + id + "/deliveries").status())
                .isEqualTo(200);
        assertThat(node.admin().delete("/admin/webhooks/" + id).status()).isEqualTo(204);
        assertThat(node.admin().get("/admin/webhooks/" + id).code()).isEqualTo("webhook_not_found");
        assertThat(node.admin().delete("/admin/webhooks/" + id).status()).isEqualTo(404);
        assertThat(node.admin().get("/admin/webhooks/" + id + "/deliveries").status())
                .isEqualTo(404);
        assertThat(node.admin().get("/admin/webhooks/wh_nonsense").status()).isEqualTo(404);
    }

    @Test
    void callersCannotManageWebhooks() {
        String key = new Fixtures(node).caller(0).key();
        assertThat(node.caller(key).get("/admin/webhooks").code()).isEqualTo("forbidden");
        assertThat(node.anonymous().get("/admin/webhooks").status()).isEqualTo(401);
    }

    private static Reply create(Map<String, Object> body) {
        return node.admin().post("/admin/webhooks", body);
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(item -> texts.add(item.asText()));
        return texts;
    }
}
