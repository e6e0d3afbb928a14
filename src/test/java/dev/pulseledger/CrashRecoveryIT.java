package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.TokenTraffic;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §6.3: the packaged jar, killed with SIGKILL in the middle of a spend load and started
 * again on the same database, still has every spending and revert it acknowledged, and nothing
 * half-applied.
 */
class CrashRecoveryIT {
    private static final int THREADS = 8;
    private static final int ACKNOWLEDGED_BEFORE_KILL = 150;
    private static final long OPENING_BALANCE = 1_000_000;

    @ParameterizedTest
    @EnumSource(TestStore.class)
    @Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void everyAcknowledgedSpendingSurvivesAKill9UnderLoad(TestStore store) throws Exception {
        String url = store.newDatabaseUrl();
        SpendBook book = new SpendBook();
        TokenTraffic traffic;
        try (JarNode node = JarNode.start(url)) {
            Fixtures fixtures = new Fixtures(node.admin());
            traffic = new TokenTraffic(
                    List.of(node.baseUrl()),
                    List.of(opened(fixtures, book)),
                    List.of(opened(fixtures, book)),
                    book,
                    TokenTraffic.Mix.NO_CREDITS);
            // Far more operations than can run before the kill: the kill ends the load.
            CompletableFuture<Void> load = traffic.start(THREADS, 1_000_000);
            while (book.acknowledgedSpendings() < ACKNOWLEDGED_BEFORE_KILL && !load.isDone()) {
                Thread.sleep(Duration.ofMillis(20));
            }
            assertThat(load)
                    .as("the load was still running when the node was killed")
                    .isNotDone();
            node.kill();
            load.join();
        }
        assertThat(book.outcomesUnknown()).as("requests the kill cut off").isPositive();

        try (JarNode restarted = JarNode.start(url)) {
            book.assertAccountsAgree(restarted.admin(), traffic.callersByAccount(restarted.baseUrl()));
        }
        assertThat(LedgerAudit.mismatches(url)).isEmpty();
    }

    private static Fixtures.Caller opened(Fixtures fixtures, SpendBook book) {
        Fixtures.Caller caller = fixtures.caller(OPENING_BALANCE);
        book.opened(caller.accountId(), OPENING_BALANCE);
        return caller;
    }
}
