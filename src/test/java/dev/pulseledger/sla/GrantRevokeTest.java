package dev.pulseledger.sla;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** CONTRACT §13: an operator takes back what is left of a credit grant, once; anything else changes nothing. */
class GrantRevokeTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void whatIsLeftOfACreditIsTakenBackOnceAndBadRevokesChangeNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Api admin = node.admin();
            Fixtures fixtures = new Fixtures(node);
            String accountId = fixtures.account(0);
            String other = fixtures.account(0);
            assertThat(admin.post("/admin/accounts/" + accountId + "/credits", Map.of("amount", 500, "reason", "x"))
                            .status())
                    .isEqualTo(201);
            String grantId = creditGrant(admin, accountId);
            Api caller = node.caller(fixtures.key(accountId));
            assertThat(caller.post("/api/tokens/spend/100").status()).isEqualTo(201);
            String revoke = "/admin/accounts/" + accountId + "/grants/" + grantId + "/revoke";

            assertThat(admin.post("/admin/accounts/" + other + "/grants/" + grantId + "/revoke")
                            .code())
                    .isEqualTo("grant_not_found");
            assertThat(admin.post("/admin/accounts/" + accountId + "/grants/gr_nope/revoke")
                            .code())
                    .isEqualTo("grant_not_found");
            assertThat(admin.post("/admin/accounts/acct_nope/grants/" + grantId + "/revoke")
                            .code())
                    .isEqualTo("account_not_found");
            assertThat(caller.post(revoke).status()).isEqualTo(403);
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(400);

            Reply revoked = admin.post(revoke);

            assertThat(revoked.status()).as(revoked.toString()).isEqualTo(200);
            assertThat(revoked.json().path("revoked").asLong()).isEqualTo(400);
            assertThat(revoked.json().path("balance").asLong()).isZero();
            Reply again = admin.post(revoke);
            assertThat(again.status()).isEqualTo(409);
            assertThat(again.code()).isEqualTo("grant_already_revoked");
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isZero();
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    private static String creditGrant(Api admin, String accountId) {
        for (JsonNode line :
                admin.get("/admin/accounts/" + accountId + "/ledger").json().path("data")) {
            if (line.path("kind").asText().equals("credit")) {
                return line.path("grantId").asText();
            }
        }
        throw new AssertionError("no credit line");
    }
}
