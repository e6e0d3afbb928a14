package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.TokenTraffic;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * CONTRACT §6.1, §6.2, §6.4 and §6.5 under 64 threads of mixed spends, reverts (colliding on purpose),
 * balance reads, credits and cross-caller probes, on one account and split over two, on both stores.
 */
class ConcurrentLedgerTest {
    private static final int THREADS = 64;
    private static final int OPERATIONS_PER_THREAD = 20;
    // Small next to the traffic's demand, so that many spends race the balance towards zero.
    private static final long OPENING_BALANCE = 4_000;

    static Stream<Arguments> storesAndAccounts() {
        return Stream.of(TestStore.values())
                .flatMap(store -> Stream.of(Arguments.of(store, 1), Arguments.of(store, 2)));
    }

    @ParameterizedTest(name = "{0}, {1} account(s)")
    @MethodSource("storesAndAccounts")
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void everyAnswerAndTheLedgerAgreeAfter64ThreadsOfMixedTraffic(TestStore store, int accounts) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
            Fixtures fixtures = new Fixtures(node);
            SpendBook book = new SpendBook();
            List<Fixtures.Caller> spenders = new ArrayList<>();
            for (int i = 0; i < accounts; i++) {
                spenders.add(opened(fixtures, book));
            }
            TokenTraffic traffic = new TokenTraffic(
                    List.of(node.baseUrl()),
                    spenders,
                    List.of(opened(fixtures, book)),
                    book,
                    TokenTraffic.Mix.EVERYTHING);

            traffic.run(THREADS, OPERATIONS_PER_THREAD);
            traffic.revertStorm(spenders.getFirst(), THREADS / 4, 4);

            assertThat(book.acknowledgedSpendings()).isPositive();
            book.assertAccountsAgree(node.admin(), traffic.callersByAccount(node.baseUrl()));
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    private static Fixtures.Caller opened(Fixtures fixtures, SpendBook book) {
        Fixtures.Caller caller = fixtures.caller(OPENING_BALANCE);
        book.opened(caller.accountId(), OPENING_BALANCE);
        return caller;
    }
}
