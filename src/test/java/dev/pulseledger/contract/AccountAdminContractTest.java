package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CONTRACT §4: accounts, credits and the ledger. */
class AccountAdminContractTest extends ContractTest {
    @Test
    void aNewAccountIs201AndReadsBack() {
        Reply created = admin().post("/admin/accounts", Map.of("name", "Acme", "planId", "free", "balance", 500));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode account = created.json();
        assertThat(account.path("id").asText()).matches("acct_[0-9a-z]{26}");
        assertThat(account.path("name").asText()).isEqualTo("Acme");
        assertThat(account.path("planId").asText()).isEqualTo("free");
        assertThat(account.path("balance").asLong()).isEqualTo(500);
        assertThat(account.path("createdAt").asText()).matches(RFC_3339_UTC);

        String id = account.path("id").asText();
        assertThat(admin().get("/admin/accounts/" + id).json()).isEqualTo(account);
        JsonNode opening = ledger(id).getFirst();
        assertThat(opening.path("kind").asText()).isEqualTo("credit");
        assertThat(opening.path("amount").asLong()).isEqualTo(500);
        assertThat(opening.path("balanceAfter").asLong()).isEqualTo(500);
    }

    @Test
    void anAccountWithoutABalanceStartsAtZero() {
        Reply created = admin().post("/admin/accounts", Map.of("name", "Empty"));
        assertThat(created.json().path("balance").asLong()).isZero();
        assertThat(ledger(created.json().path("id").asText())).isEmpty();
    }

    @Test
    void theAccountListPagesThroughEveryAccountOnce() {
        Set<String> created = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            created.add(fixtures.account(i));
        }
        List<String> seen = new ArrayList<>();
        String query = "?limit=2";
        for (int page = 0; page < 1000; page++) {
            Reply reply = admin().get("/admin/accounts" + query);
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.json().path("data").size()).isLessThanOrEqualTo(2);
            reply.json()
                    .path("data")
                    .forEach(account -> seen.add(account.path("id").asText()));
            if (reply.json().path("nextCursor").isNull()) {
                break;
            }
            query = "?limit=2&cursor=" + reply.json().path("nextCursor").asText();
        }
        assertThat(seen).doesNotHaveDuplicates().containsAll(created);
        assertThat(seen).hasSameSizeAs(everyItem(admin(), "/admin/accounts"));
        assertThat(admin().get("/admin/accounts").json().path("data").size()).isLessThanOrEqualTo(20);
        assertBadField(admin().get("/admin/accounts?limit=0"), "invalid_limit", "limit");
        assertBadField(admin().get("/admin/accounts?limit=101"), "invalid_limit", "limit");
        assertBadField(admin().get("/admin/accounts?cursor=%25%25"), "invalid_cursor", "cursor");
    }

    @Test
    void anUnknownAccountIs404AccountNotFound() {
        String unknown = "/admin/accounts/acct_01jf0000000000000000000000";
        assertProblem(admin().get(unknown), 404, "account_not_found");
        assertProblem(admin().get(unknown + "/ledger"), 404, "account_not_found");
        assertProblem(admin().get(unknown + "/keys"), 404, "account_not_found");
        assertProblem(admin().post(unknown + "/keys", Map.of()), 404, "account_not_found");
        assertProblem(admin().post(unknown + "/credits", Map.of("amount", 5)), 404, "account_not_found");
        assertProblem(admin().put(unknown + "/plan", Map.of("planId", "free")), 404, "account_not_found");
        assertProblem(admin().get("/admin/accounts/nonsense"), 404, "account_not_found");
    }

    @Test
    void aCreditIs201WithTheNewBalance() {
        Fixtures.Caller caller = fixtures.caller(500);
        Reply credited = admin().post(
                        "/admin/accounts/" + caller.accountId() + "/credits",
                        Map.of("amount", 250, "reason", "top-up"));
        assertThat(credited.status()).as(credited.toString()).isEqualTo(201);
        assertThat(credited.json().path("balance").asLong()).isEqualTo(750);
        assertThat(credited.json().path("amount").asLong()).isEqualTo(250);
        assertThat(balance(caller)).isEqualTo(750);
        JsonNode entry = ledger(caller.accountId()).getFirst();
        assertThat(entry.path("kind").asText()).isEqualTo("credit");
        assertThat(entry.path("amount").asLong()).isEqualTo(250);
        assertThat(entry.path("balanceAfter").asLong()).isEqualTo(750);
        assertThat(entry.path("reason").asText()).isEqualTo("top-up");
    }

    @Test
    void aNonPositiveOrMalformedCreditIs400AndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(500);
        AccountState before = state(caller.accountId());
        String path = "/admin/accounts/" + caller.accountId() + "/credits";
        Map<String, Object> nullAmount = new HashMap<>();
        nullAmount.put("amount", null);
        for (Object body : List.of(
                Map.of("amount", 0),
                Map.of("amount", -5),
                Map.of("amount", 1.5),
                Map.of("amount", "10"),
                Map.of("amount", true),
                Map.of("amount", 1_000_000_000_001L),
                Map.of("reason", "no amount"),
                nullAmount,
                "{\"amount\": 99999999999999999999999}")) {
            assertBadField(admin().post(path, body), "invalid_request", "amount");
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void theLedgerHasEveryCreditSpendAndRevertNewestFirst() {
        Fixtures.Caller caller = fixtures.caller(100);
        admin().post("/admin/accounts/" + caller.accountId() + "/credits", Map.of("amount", 50, "reason", "gift"));
        String first = spendingId(caller, 30);
        String second = spendingId(caller, 20);
        caller(caller).post("/api/tokens/spendings/" + first + "/revert");

        List<JsonNode> entries = ledger(caller.accountId());

        assertThat(entries)
                .extracting(e -> e.path("kind").asText())
                .containsExactly("revert", "spend", "spend", "credit", "credit");
        assertThat(entries).extracting(e -> e.path("amount").asLong()).containsExactly(30L, -20L, -30L, 50L, 100L);
        assertThat(entries)
                .extracting(e -> e.path("balanceAfter").asLong())
                .containsExactly(130L, 100L, 120L, 150L, 100L);
        assertThat(entries)
                .extracting(e -> e.path("spendingId").asText(null))
                .containsExactly(first, second, first, null, null);
        assertThat(entries.get(1).path("reason").isNull()).isTrue();
        assertThat(entries.get(3).path("reason").asText()).isEqualTo("gift");
        assertThat(entries)
                .allSatisfy(e -> assertThat(e.path("createdAt").asText()).matches(RFC_3339_UTC));
        assertThat(entries.stream().mapToLong(e -> e.path("amount").asLong()).sum())
                .isEqualTo(balance(caller));

        List<JsonNode> paged = new ArrayList<>();
        String query = "?limit=1";
        for (int page = 0; page < 10; page++) {
            Reply reply = admin().get("/admin/accounts/" + caller.accountId() + "/ledger" + query);
            paged.addAll(reply.json().path("data").valueStream().toList());
            if (reply.json().path("nextCursor").isNull()) {
                break;
            }
            query = "?limit=1&cursor=" + reply.json().path("nextCursor").asText();
        }
        assertThat(paged).isEqualTo(entries);
        assertBadField(
                admin().get("/admin/accounts/" + caller.accountId() + "/ledger?cursor=bad"),
                "invalid_cursor",
                "cursor");
    }
}
