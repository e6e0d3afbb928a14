package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class SpendSmokeTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendLowersTheBalanceAndARevertRestoresIt(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Reply spent = node.caller(caller.key()).post("/api/tokens/spend/100");
            assertThat(spent.status()).isEqualTo(201);
            assertThat(spent.json().get("balance").asLong()).isEqualTo(900);
            String id = spent.json().get("spendingId").asText();
            Reply reverted = node.caller(caller.key()).post("/api/tokens/spendings/" + id + "/revert");
            assertThat(reverted.json().get("balance").asLong()).isEqualTo(1000);
            assertThat(node.caller(caller.key())
                            .get("/api/tokens/balance")
                            .json()
                            .get("balance")
                            .asLong())
                    .isEqualTo(1000);
        }
    }
}
