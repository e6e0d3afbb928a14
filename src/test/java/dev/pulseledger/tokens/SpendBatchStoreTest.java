package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Batches decided in one transaction: commands later in a batch see what earlier ones decided. */
class SpendBatchStoreTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void twoRevertsOfOneSpendingInOneBatchRefundItOnce(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            String spendingId = node.caller(caller.key())
                    .post("/api/tokens/spend/100")
                    .json()
                    .get("spendingId")
                    .asText();
            LedgerCommand revert = new LedgerCommand.Revert(caller.accountId(), spendingId);

            List<LedgerOutcome> outcomes = batchStore(database).apply(List.of(revert, revert), false);

            assertThat(outcomes)
                    .hasSize(2)
                    .allSatisfy(outcome -> assertThat(outcome)
                            .isInstanceOfSatisfying(
                                    RevertResult.Reverted.class,
                                    reverted -> assertThat(reverted.balance()).isEqualTo(1000)));
            assertThat(outcomes.get(1)).isEqualTo(outcomes.get(0));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendAndItsRevertInOneBatchLeaveTheBalanceWhereItWas(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            LedgerCommand spend = new LedgerCommand.Spend(
                    new SpendRequest(caller.accountId(), 300, Optional.empty()), "sp_01aaaaaaaaaaaaaaaaaaaaaaaa");
            LedgerCommand revert = new LedgerCommand.Revert(caller.accountId(), "sp_01aaaaaaaaaaaaaaaaaaaaaaaa");

            List<LedgerOutcome> outcomes = batchStore(database).apply(List.of(spend, revert, revert), false);

            assertThat(outcomes.get(0)).isInstanceOf(SpendResult.Spent.class);
            assertThat(outcomes.get(2)).isEqualTo(outcomes.get(1));
            assertThat(node.caller(caller.key()).balance()).isEqualTo(1000);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /** The store as a node wires it, with an outbox whose events nobody here listens to. */
    private static SpendBatchStore batchStore(Database database) {
        return new SpendBatchStore(database, Clock.systemUTC(), new Outbox(database, (connection, events, at) -> {}));
    }
}
