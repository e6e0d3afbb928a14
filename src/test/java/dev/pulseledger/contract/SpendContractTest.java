package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CONTRACT §3, POST /api/tokens/spend/{amount}: amounts, 402, and Idempotency-Key. */
class SpendContractTest extends ContractTest {
    private static final String SPENDING_ID = "sp_[0-9a-z]{26}";

    @Test
    void aSpendIs201WithLocationAndTheBalanceAfterIt() {
        Fixtures.Caller caller = fixtures.caller(1000);
        Reply spent = caller(caller).post("/api/tokens/spend/100");

        assertThat(spent.status()).as(spent.toString()).isEqualTo(201);
        JsonNode body = spent.json();
        assertThat(body.path("spendingId").asText()).matches(SPENDING_ID);
        assertThat(body.path("amount").asLong()).isEqualTo(100);
        assertThat(body.path("balance").asLong()).isEqualTo(900);
        assertThat(body.path("status").asText()).isEqualTo("active");
        assertThat(body.path("createdAt").asText()).matches(RFC_3339_UTC);
        assertThat(spent.header("Location"))
                .contains("/api/tokens/spendings/" + body.path("spendingId").asText());
        assertThat(spent.header("Idempotent-Replayed")).isEmpty();

        Reply located = caller(caller).get(spent.header("Location").orElseThrow());
        assertThat(located.status()).isEqualTo(200);
        assertThat(located.json().path("spendingId")).isEqualTo(body.path("spendingId"));
        assertThat(located.json().path("createdAt")).isEqualTo(body.path("createdAt"));
        assertThat(balance(caller)).isEqualTo(900);
        JsonNode entry = ledger(caller.accountId()).getFirst();
        assertThat(entry.path("kind").asText()).isEqualTo("spend");
        assertThat(entry.path("amount").asLong()).isEqualTo(-100);
        assertThat(entry.path("balanceAfter").asLong()).isEqualTo(900);
        assertThat(entry.path("spendingId")).isEqualTo(body.path("spendingId"));
    }

    @Test
    void everyWholeAmountFromOneToOneBillionIsAccepted() {
        Fixtures.Caller caller = fixtures.caller(2_000_000_000L);
        assertThat(caller(caller)
                        .post("/api/tokens/spend/1")
                        .json()
                        .path("balance")
                        .asLong())
                .isEqualTo(1_999_999_999L);
        Reply most = caller(caller).post("/api/tokens/spend/1000000000");
        assertThat(most.status()).isEqualTo(201);
        assertThat(most.json().path("amount").asLong()).isEqualTo(1_000_000_000L);
        assertThat(most.json().path("balance").asLong()).isEqualTo(999_999_999L);
    }

    @Test
    void aSpendAboveTheBalanceIs402WithBalanceAndRequiredAndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(50);
        AccountState before = state(caller.accountId());

        Reply refused = caller(caller).post("/api/tokens/spend/100");
        assertProblem(refused, 402, "insufficient_balance");
        assertThat(refused.json().path("balance").asLong()).isEqualTo(50);
        assertThat(refused.json().path("required").asLong()).isEqualTo(100);
        assertThat(state(caller.accountId())).isEqualTo(before);

        assertThat(caller(caller)
                        .post("/api/tokens/spend/50")
                        .json()
                        .path("balance")
                        .asLong())
                .isZero();
        Reply empty = caller(caller).post("/api/tokens/spend/1");
        assertProblem(empty, 402, "insufficient_balance");
        assertThat(empty.json().path("balance").asLong()).isZero();
        assertThat(empty.json().path("required").asLong()).isEqualTo(1);
        assertThat(balance(caller)).isZero();
    }

    @Test
    void anAmountThatIsNotAWholeNumberFromOneToOneBillionIs400InvalidAmount() {
        Fixtures.Caller caller = fixtures.caller(10_000_000_000L);
        AccountState before = state(caller.accountId());
        for (String amount : List.of(
                "0",
                "-5",
                "1.5",
                "abc",
                "1000000001",
                "01",
                "+5",
                "1e3",
                "0x10",
                "%205",
                "5%20",
                "-0",
                "00",
                "99999999999999999999",
                "9223372036854775808",
                "%EF%BC%91",
                "%00",
                "5;x")) {
            Reply reply = caller(caller)
                    .send("POST", "/api/tokens/spend/" + amount, null, Map.of("Idempotency-Key", "bad-" + amount));
            assertThat(reply.status()).as(amount).isEqualTo(400);
            assertProblem(reply, 400, "invalid_amount");
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(caller(caller)
                        .send("POST", "/api/tokens/spend/5", null, Map.of("Idempotency-Key", "bad-0"))
                        .status())
                .as("a refused amount does not use up its idempotency key")
                .isEqualTo(201);
    }

    @Test
    void aRepeatWithTheSameIdempotencyKeyReplaysTheFirstResponseAndSpendsNothing() {
        Fixtures.Caller caller = fixtures.caller(1000);
        Reply first = spend(caller, 100, "order-42");
        assertThat(first.status()).isEqualTo(201);
        assertThat(first.header("Idempotent-Replayed")).isEmpty();
        AccountState after = state(caller.accountId());

        for (int i = 0; i < 3; i++) {
            Reply repeat = spend(caller, 100, "order-42");
            assertThat(repeat.status()).isEqualTo(201);
            assertThat(repeat.header("Idempotent-Replayed")).contains("true");
            assertThat(repeat.json()).isEqualTo(first.json());
            assertThat(repeat.header("Location")).isEqualTo(first.header("Location"));
        }
        assertThat(state(caller.accountId())).isEqualTo(after);
        assertThat(balance(caller)).isEqualTo(900);
    }

    @Test
    void aRepeatOfARefusedSpendReplaysThe402() {
        Fixtures.Caller caller = fixtures.caller(50);
        Reply first = spend(caller, 100, "too-much");
        assertProblem(first, 402, "insufficient_balance");
        assertThat(admin().post("/admin/accounts/" + caller.accountId() + "/credits", Map.of("amount", 100))
                        .status())
                .isEqualTo(201);
        AccountState credited = state(caller.accountId());

        Reply repeat = spend(caller, 100, "too-much");
        assertProblem(repeat, 402, "insufficient_balance");
        assertThat(repeat.header("Idempotent-Replayed")).contains("true");
        assertThat(repeat.json()).isEqualTo(first.json());
        assertThat(state(caller.accountId())).isEqualTo(credited);
    }

    @Test
    void theSameIdempotencyKeyWithAnotherAmountIs422AndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(1000);
        assertThat(spend(caller, 100, "order-7").status()).isEqualTo(201);
        AccountState before = state(caller.accountId());

        assertProblem(spend(caller, 200, "order-7"), 422, "idempotency_key_reused");
        assertProblem(spend(caller, 1, "order-7"), 422, "idempotency_key_reused");
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void idempotencyKeysBelongToOneAccount() {
        Fixtures.Caller one = fixtures.caller(1000);
        Fixtures.Caller other = fixtures.caller(1000);
        Reply first = spend(one, 100, "shared-key");
        Reply second = spend(other, 100, "shared-key");
        assertThat(second.status()).isEqualTo(201);
        assertThat(second.header("Idempotent-Replayed")).isEmpty();
        assertThat(second.json().path("spendingId")).isNotEqualTo(first.json().path("spendingId"));
        assertThat(balance(one)).isEqualTo(900);
        assertThat(balance(other)).isEqualTo(900);
    }

    @Test
    void aRepeatWhileTheFirstIsStillRunningIs409AndOnlyOneSpendHappens() {
        int conflicts = 0;
        for (int round = 0; round < 10 && conflicts == 0; round++) {
            Fixtures.Caller caller = fixtures.caller(1000);
            String key = "race-" + round;
            List<Reply> replies = concurrently(24, () -> spend(caller, 10, key));
            Set<String> spendingIds = new HashSet<>();
            for (Reply reply : replies) {
                if (reply.status() == 409) {
                    assertProblem(reply, 409, "idempotency_key_in_use");
                    conflicts++;
                } else {
                    assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
                    spendingIds.add(reply.json().path("spendingId").asText());
                }
            }
            assertThat(spendingIds).hasSize(1);
            assertThat(balance(caller)).isEqualTo(990);
            assertThat(ledger(caller.accountId()).stream()
                            .filter(entry -> entry.path("kind").asText().equals("spend")))
                    .hasSize(1);
        }
        assertThat(conflicts)
                .as("concurrent repeats of one key were all answered 409 at least once")
                .isPositive();
    }

    @Test
    void aMalformedIdempotencyKeyIs400AndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(1000);
        AccountState before = state(caller.accountId());
        for (String key : List.of("", "k".repeat(256), "tab\there")) {
            assertProblem(spend(caller, 100, key), 400, "invalid_idempotency_key");
        }
        for (String headers :
                List.of("Idempotency-Key: ключ\r\n", "Idempotency-Key: one\r\nIdempotency-Key: two\r\n")) {
            String response = RawHttp.exchange(
                    node,
                    "POST /api/tokens/spend/100 HTTP/1.1\r\nHost: localhost\r\nX-ApiKey: " + caller.key() + "\r\n"
                            + headers + "Content-Length: 0\r\nConnection: close\r\n\r\n");
            assertThat(response).startsWith("HTTP/1.1 400").contains("\"code\":\"invalid_idempotency_key\"");
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(spend(caller, 100, "k".repeat(255)).status()).isEqualTo(201);
        assertThat(spend(caller, 100, "~ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}").status())
                .isEqualTo(201);
    }

    private Reply spend(Fixtures.Caller caller, long amount, String idempotencyKey) {
        return caller(caller)
                .send("POST", "/api/tokens/spend/" + amount, null, Map.of("Idempotency-Key", idempotencyKey));
    }
}
