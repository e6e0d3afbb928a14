package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class BalanceReadTest {
    private static final int CALLERS = 16;
    private static final int ROUNDS = 25;
    private static final long OPENING_BALANCE = 1_000;

    /**
     * Many callers read at once, so on PostgreSQL their reads share queries: each must still get its
     * own account's balance, including the spend it was just told about.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void concurrentReadsEachSeeTheirOwnAccountIncludingTheSpendJustMade(TestStore store) throws Exception {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                ExecutorService threads = Executors.newFixedThreadPool(CALLERS)) {
            Fixtures fixtures = new Fixtures(node);
            List<Future<List<String>>> results = new ArrayList<>();
            for (int i = 0; i < CALLERS; i++) {
                Fixtures.Caller caller = fixtures.caller(OPENING_BALANCE);
                results.add(threads.submit(() -> spendAndRead(node, caller)));
            }
            List<String> wrong = new ArrayList<>();
            for (Future<List<String>> result : results) {
                wrong.addAll(result.get());
            }
            assertThat(wrong).isEmpty();
        }
    }

    /** Spends 1 token per round and reads the balance right after; returns every read that was off. */
    private static List<String> spendAndRead(TestNode node, Fixtures.Caller caller) {
        List<String> wrong = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            Reply spent = node.caller(caller.key()).post("/api/tokens/spend/1");
            long expected = OPENING_BALANCE - round;
            if (spent.status() != 201 || spent.json().get("balance").asLong() != expected) {
                wrong.add(caller.accountId() + " spend " + round + ": " + spent.status());
                continue;
            }
            long read = node.caller(caller.key())
                    .get("/api/tokens/balance")
                    .json()
                    .get("balance")
                    .asLong();
            if (read != expected) {
                wrong.add(caller.accountId() + " read " + read + " after round " + round + ", expected " + expected);
            }
        }
        return wrong;
    }
}
