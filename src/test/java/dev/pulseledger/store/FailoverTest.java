package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.PostgresPair;
import dev.pulseledger.support.SpendLoop;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.Waiting;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §12, PostgreSQL as production runs it: two nodes on a primary with a synchronous streaming
 * standby, reached by the driver's multi-host URL. The primary crashes under spend traffic and the
 * standby is promoted: every acknowledged spend is on the new primary, nothing but 503 is answered
 * meanwhile, and the nodes serve again soon after the promotion, by themselves.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class FailoverTest {
    private static final int SPENDERS = 8;
    private static final int SPENDS_BEFORE_CRASH = 100;
    private static final Duration SERVING_AGAIN_LIMIT = Duration.ofSeconds(10);

    @Test
    void afterThePrimaryCrashesAndTheStandbyIsPromotedNoAcknowledgedSpendIsLostAndTheNodesServeAgain()
            throws Exception {
        try (PostgresPair databases = PostgresPair.start()) {
            String url = databases.multiHostUrl();
            String[] flags = {"--db-connection-timeout-ms", "1000", "--db-statement-timeout-ms", "2000"};
            SpendLoop spends = new SpendLoop(
                    // Both nodes spend on one account: a waiter whose lock does not come within the
                    // lock timeout while the new primary settles is answered account_busy, also a clean 503.
                    Fault.DATABASE_UNAVAILABLE.code(), Fault.ACCOUNT_BUSY.code());
            try (TestNode first = TestNode.start(url, flags);
                    TestNode second = TestNode.start(url, flags);
                    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                String key = new Fixtures(first).caller(1_000_000_000).key();
                List<Api> nodes = List.of(first.caller(key), second.caller(key));
                List<Future<?>> spenders = new ArrayList<>();
                for (int i = 0; i < SPENDERS; i++) {
                    int spender = i;
                    spenders.add(threads.submit(() -> spends.run(nodes.get(spender % 2), spender)));
                }
                Waiting.until(
                        "spends before the crash", () -> spends.acknowledged().size() >= SPENDS_BEFORE_CRASH);

                databases.crashPrimary();
                Waiting.until("spends answered 503 while there is no primary", () -> spends.countOf(503) >= SPENDERS);
                assertThat(first.anonymous().get("/health/ready").status())
                        .as("readiness with no primary")
                        .isEqualTo(503);
                databases.promoteStandby();
                long promotedNanos = System.nanoTime();
                Waiting.until("a spend succeeds on the new primary", () -> spends.last201Nanos() > promotedNanos);
                Duration servingAgain = Duration.ofNanos(spends.last201Nanos() - promotedNanos);
                System.out.printf(
                        "FailoverTest: first 201 %.2f s after the promotion%n", servingAgain.toMillis() / 1000.0);
                Waiting.until(
                        "both nodes spend on the new primary",
                        () -> nodes.stream()
                                .allMatch(api -> api.post("/api/tokens/spend/1").status() == 201));
                Waiting.until(
                        "both nodes ready again",
                        () -> List.of(first, second).stream()
                                .allMatch(node ->
                                        node.anonymous().get("/health/ready").status() == 200));
                spends.stop();
                for (Future<?> spender : spenders) {
                    spender.get();
                }

                System.out.println("FailoverTest: answers by status " + spends.statuses());
                assertThat(spends.statuses().keySet()).as("statuses").containsOnly(201, 503);
                assertThat(spends.unexpected503s())
                        .as("503s that are not a clean database_unavailable or account_busy problem")
                        .isEmpty();
                assertThat(servingAgain).isLessThanOrEqualTo(SERVING_AGAIN_LIMIT);
            }
            assertThat(missingOnTheNewPrimary(databases.standbyUrl(), spends.acknowledged()))
                    .as("acknowledged spendings missing on the new primary")
                    .isEmpty();
            assertThat(LedgerAudit.mismatches(databases.standbyUrl())).isEmpty();
        }
    }

    private static List<String> missingOnTheNewPrimary(String url, Queue<String> acknowledged) throws Exception {
        List<String> missing = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM spendings WHERE id = ?")) {
            for (String id : acknowledged) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        missing.add(id);
                    }
                }
            }
        }
        return missing;
    }
}
