package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Reply;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CONTRACT §4: issuing, listing and revoking caller keys. */
class KeyAdminContractTest extends ContractTest {
    @Test
    void aNewKeyIs201WithTheSecretShownThisOnce() {
        String accountId = fixtures.account(0);
        Instant expiresAt = Instant.now().plus(30, ChronoUnit.DAYS).truncatedTo(ChronoUnit.SECONDS);
        Reply created = admin().post(
                        "/admin/accounts/" + accountId + "/keys",
                        Map.of("name", "ci", "expiresAt", expiresAt.toString()));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode key = created.json();
        assertThat(key.path("id").asText()).matches("key_[0-9a-z]{26}");
        assertThat(key.path("key").asText()).startsWith("pl_");
        assertThat(key.path("prefix").asText()).isNotBlank();
        assertThat(key.path("key").asText()).startsWith(key.path("prefix").asText());
        assertThat(key.path("prefix").asText().length())
                .isLessThan(key.path("key").asText().length() - 16);
        assertThat(key.path("createdAt").asText()).matches(RFC_3339_UTC);
        assertThat(Instant.parse(key.path("expiresAt").asText())).isEqualTo(expiresAt);
    }

    @Test
    void aKeyNeedsNoBodyAndThenNeverExpires() {
        String accountId = fixtures.account(0);
        Reply created = admin().post("/admin/accounts/" + accountId + "/keys");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().path("expiresAt").isNull()).isTrue();
        assertThat(node.caller(created.json().path("key").asText())
                        .get("/api/tokens/balance")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void theKeyListShowsEveryKeyButNeverItsSecret() {
        String accountId = fixtures.account(0);
        String one = fixtures.key(accountId);
        String two = fixtures.key(accountId);

        Reply listed = admin().get("/admin/accounts/" + accountId + "/keys");
        assertThat(listed.status()).isEqualTo(200);
        List<JsonNode> keys = listed.json().path("data").valueStream().toList();
        assertThat(keys).hasSize(2).allSatisfy(key -> {
            assertThat(key.has("key")).isFalse();
            assertThat(key.path("id").asText()).startsWith("key_");
            assertThat(key.path("createdAt").asText()).matches(RFC_3339_UTC);
            assertThat(key.path("revokedAt").isNull()).isTrue();
        });
        assertThat(keys)
                .extracting(key -> key.path("prefix").asText())
                .allSatisfy(prefix -> assertThat(one.startsWith(prefix) || two.startsWith(prefix))
                        .isTrue());
        assertThat(listed.text()).doesNotContain(one, two);
    }

    @Test
    void aRevokeIs204AndTheKeyStopsWorking() {
        String accountId = fixtures.account(100);
        Reply created = admin().post("/admin/accounts/" + accountId + "/keys");
        String keyId = created.json().path("id").asText();
        String secret = created.json().path("key").asText();
        assertThat(node.caller(secret).get("/api/tokens/balance").status()).isEqualTo(200);

        Reply revoked = admin().delete("/admin/keys/" + keyId);
        assertThat(revoked.status()).isEqualTo(204);
        assertThat(revoked.text()).isEmpty();
        assertProblem(node.caller(secret).get("/api/tokens/balance"), 401, "invalid_api_key");
        assertThat(admin().get("/admin/accounts/" + accountId + "/keys")
                        .json()
                        .path("data")
                        .get(0)
                        .path("revokedAt")
                        .asText())
                .matches(RFC_3339_UTC);
        assertThat(admin().delete("/admin/keys/" + keyId).status()).isEqualTo(204);
        assertProblem(admin().delete("/admin/keys/key_01jf0000000000000000000000"), 404, "key_not_found");
    }

    @Test
    void badKeyInputIs400NamingTheFieldAndIssuesNothing() {
        String accountId = fixtures.account(0);
        String path = "/admin/accounts/" + accountId + "/keys";
        assertBadField(
                admin().post(
                                path,
                                Map.of(
                                        "expiresAt",
                                        Instant.now().minusSeconds(60).toString())),
                "invalid_request",
                "expiresAt");
        assertBadField(admin().post(path, Map.of("expiresAt", "tomorrow")), "invalid_request", "expiresAt");
        assertBadField(admin().post(path, Map.of("name", 5)), "invalid_request", "name");
        assertBadField(admin().post(path, Map.of("scope", "all")), "invalid_request", "scope");
        assertProblem(
                admin().send("POST", path, "name=x", Map.of("Content-Type", "text/plain")),
                415,
                "unsupported_media_type");
        assertThat(admin().get(path).json().path("data")).isEmpty();
    }
}
