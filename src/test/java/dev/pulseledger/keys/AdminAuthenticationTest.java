package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import org.junit.jupiter.api.Test;

class AdminAuthenticationTest {
    @Test
    void aRevokedCallerKeyOnTheOperatorApiIsAnInvalidKeyNotAForbiddenOne() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(10);
            assertThat(node.caller(caller.key()).get("/admin/plans").code()).isEqualTo("forbidden");

            String keyId = node.admin()
                    .get("/admin/accounts/" + caller.accountId() + "/keys")
                    .json()
                    .get("data")
                    .get(0)
                    .get("id")
                    .asText();
            assertThat(node.admin().delete("/admin/keys/" + keyId).status()).isEqualTo(204);

            Reply reply = node.caller(caller.key()).get("/admin/plans");
            assertThat(reply.status()).isEqualTo(401);
            assertThat(reply.code()).isEqualTo("invalid_api_key");
            assertThat(reply.header("WWW-Authenticate")).contains("ApiKey header=\"X-ApiKey\"");
        }
    }
}
