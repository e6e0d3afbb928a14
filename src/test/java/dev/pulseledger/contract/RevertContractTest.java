package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** CONTRACT §3, POST /api/tokens/spendings/{spendingId}/revert. */
class RevertContractTest extends ContractTest {
    @Test
    void aRevertGivesTheAmountBack() {
        Fixtures.Caller caller = fixtures.caller(1000);
        JsonNode spent = caller(caller).post("/api/tokens/spend/100").json();

        Reply reverted = revert(caller, spent.path("spendingId").asText());
        assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
        JsonNode body = reverted.json();
        assertThat(body.path("spendingId")).isEqualTo(spent.path("spendingId"));
        assertThat(body.path("amount").asLong()).isEqualTo(100);
        assertThat(body.path("status").asText()).isEqualTo("reverted");
        assertThat(body.path("createdAt")).isEqualTo(spent.path("createdAt"));
        assertThat(body.path("revertedAt").asText()).matches(RFC_3339_UTC);
        assertThat(body.path("balance").asLong()).isEqualTo(1000);
        assertThat(balance(caller)).isEqualTo(1000);

        JsonNode entry = ledger(caller.accountId()).getFirst();
        assertThat(entry.path("kind").asText()).isEqualTo("revert");
        assertThat(entry.path("amount").asLong()).isEqualTo(100);
        assertThat(entry.path("balanceAfter").asLong()).isEqualTo(1000);
        assertThat(entry.path("spendingId")).isEqualTo(spent.path("spendingId"));
    }

    @Test
    void aRepeatedRevertAnswersTheSameAndRefundsNothingMore() {
        Fixtures.Caller caller = fixtures.caller(1000);
        String id = spendingId(caller, 100);
        caller(caller).post("/api/tokens/spend/50");
        Reply first = revert(caller, id);
        AccountState after = state(caller.accountId());

        for (int i = 0; i < 3; i++) {
            Reply again = revert(caller, id);
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.json()).isEqualTo(first.json());
        }
        assertThat(state(caller.accountId())).isEqualTo(after);
        assertThat(balance(caller)).isEqualTo(950);
    }

    @Test
    void concurrentRevertsRefundOnce() {
        Fixtures.Caller caller = fixtures.caller(1000);
        String id = spendingId(caller, 100);

        List<Reply> replies = concurrently(16, () -> revert(caller, id));

        assertThat(replies).allSatisfy(reply -> assertThat(reply.status()).isEqualTo(200));
        assertThat(replies.stream()
                        .map(reply -> reply.json().path("revertedAt"))
                        .distinct())
                .hasSize(1);
        assertThat(balance(caller)).isEqualTo(1000);
        assertThat(ledger(caller.accountId()).stream()
                        .filter(entry -> entry.path("kind").asText().equals("revert")))
                .hasSize(1);
    }

    @Test
    void anotherCallersSpendingIs404SpendingNotFoundAndChangesNothing() {
        Fixtures.Caller owner = fixtures.caller(1000);
        Fixtures.Caller stranger = fixtures.caller(1000);
        String id = spendingId(owner, 100);
        AccountState ownerBefore = state(owner.accountId());
        AccountState strangerBefore = state(stranger.accountId());

        Reply foreign = revert(stranger, id);
        Reply missing = revert(stranger, "sp_00000000000000000000000000");
        assertProblem(foreign, 404, "spending_not_found");
        assertProblem(missing, 404, "spending_not_found");
        assertThat(foreign.json().path("detail")).isEqualTo(missing.json().path("detail"));
        for (String badId : List.of("nope", "sp_", "sp_" + "z".repeat(200), id.toUpperCase(Locale.ROOT), "acct_x")) {
            assertProblem(revert(stranger, badId), 404, "spending_not_found");
            assertProblem(revert(owner, badId), 404, "spending_not_found");
        }

        assertThat(state(owner.accountId())).isEqualTo(ownerBefore);
        assertThat(state(stranger.accountId())).isEqualTo(strangerBefore);
        assertThat(caller(owner)
                        .get("/api/tokens/spendings/" + id)
                        .json()
                        .path("status")
                        .asText())
                .isEqualTo("active");
    }

    private Reply revert(Fixtures.Caller caller, String spendingId) {
        return caller(caller).post("/api/tokens/spendings/" + spendingId + "/revert");
    }
}
