package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /**
     * A balance read again and again (on SQLite the node then answers it from memory) still shows each
     * change in the very next read: a spend, an operator's credit, a hold, its release, a revert.
     */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aBalanceReadOftenShowsEachChangeInTheNextRead(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(OPENING_BALANCE);
            Api api = node.caller(caller.key());
            assertThat(readTwice(api)).isEqualTo(List.of(OPENING_BALANCE, OPENING_BALANCE));

            Reply spent = api.post("/api/tokens/spend/7");
            assertThat(spent.status()).as(spent.toString()).isEqualTo(201);
            assertThat(readTwice(api)).isEqualTo(List.of(993L, 993L));

            Reply credited = node.admin()
                    .post("/admin/accounts/" + caller.accountId() + "/credits", Map.of("amount", 50, "reason", "test"));
            assertThat(credited.status()).as(credited.toString()).isEqualTo(201);
            assertThat(readTwice(api)).isEqualTo(List.of(1_043L, 1_043L));

            Reply reserved = api.post("/api/tokens/reservations", Map.of("amount", 40, "expiresInSeconds", 120));
            assertThat(reserved.status()).as(reserved.toString()).isEqualTo(201);
            assertThat(readTwice(api)).isEqualTo(List.of(1_003L, 1_003L));
            assertThat(api.get("/api/tokens/balance").json().get("held").asLong())
                    .isEqualTo(40);

            String reservationId = reserved.json().get("reservationId").asText();
            Reply released = api.post("/api/tokens/reservations/" + reservationId + "/release");
            assertThat(released.status()).as(released.toString()).isEqualTo(200);
            assertThat(readTwice(api)).isEqualTo(List.of(1_043L, 1_043L));

            Reply reverted = api.post(
                    "/api/tokens/spendings/" + spent.json().get("spendingId").asText() + "/revert");
            assertThat(reverted.status()).as(reverted.toString()).isEqualTo(200);
            assertThat(readTwice(api)).isEqualTo(List.of(1_050L, 1_050L));
        }
    }

    private static List<Long> readTwice(Api api) {
        return List.of(
                api.get("/api/tokens/balance").json().get("balance").asLong(),
                api.get("/api/tokens/balance").json().get("balance").asLong());
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
