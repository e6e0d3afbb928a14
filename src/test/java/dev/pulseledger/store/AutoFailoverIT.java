package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.AutoFailoverCluster;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
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
 * CONTRACT §18, failover run by a real manager: a pg_auto_failover monitor, primary and secondary made
 * by the test, two nodes on the multi-host URL under spend load. The primary's node is killed (SIGKILL
 * of its pg_autoctl and PostgreSQL); the monitor promotes the secondary; the nodes serve again within
 * 10 s of the promotion; every acknowledged spend is in the database afterwards, none twice.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class AutoFailoverIT {
    private static final int SPENDERS = 8;
    private static final Duration SERVING_AGAIN_LIMIT = Duration.ofSeconds(10);

    @Test
    void theMonitorPromotesTheSecondaryAndNoAcknowledgedSpendIsLostOrDoubled() throws Exception {
        try (AutoFailoverCluster cluster = AutoFailoverCluster.start()) {
            String url = cluster.multiHostUrl();
            String[] flags = {"--db-connection-timeout-ms", "1000", "--db-statement-timeout-ms", "2000"};
            SpendLoop spends = new SpendLoop(Fault.DATABASE_UNAVAILABLE.code(), Fault.ACCOUNT_BUSY.code());
            int oldPrimary = cluster.primary();
            assertThat(oldPrimary).as("a primary before the kill").isNotNegative();
            long promotedNanos;
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
                        "spends before the kill", () -> spends.acknowledged().size() >= 200);

                cluster.killNode(oldPrimary);
                long killedNanos = System.nanoTime();
                Waiting.until("the monitor promotes the secondary", () -> cluster.promotedByTheMonitor(1 - oldPrimary));
                promotedNanos = System.nanoTime();
                Waiting.until(
                        "a spend succeeds on the new primary (" + cluster.describe() + ")",
                        () -> spends.last201Nanos() > promotedNanos);
                Duration servingAgain = Duration.ofNanos(spends.last201Nanos() - promotedNanos);
                System.out.printf(
                        "AutoFailoverIT: promoted %.1f s after the kill, first 201 %.2f s after the promotion%n",
                        (promotedNanos - killedNanos) / 1e9, servingAgain.toMillis() / 1000.0);
                Waiting.until(
                        "both nodes spend on the new primary",
                        () -> nodes.stream()
                                .allMatch(api -> api.post("/api/tokens/spend/1").status() == 201));
                spends.stop();
                for (Future<?> spender : spenders) {
                    spender.get();
                }
                System.out.println("AutoFailoverIT: answers by status " + spends.statuses());
                assertThat(spends.statuses().keySet()).as("statuses").containsOnly(201, 503);
                assertThat(spends.unexpected503s())
                        .as("503s that are not a clean problem")
                        .isEmpty();
                assertThat(servingAgain).isLessThanOrEqualTo(SERVING_AGAIN_LIMIT);
            }
            String newPrimary = cluster.nodeUrl(1 - oldPrimary);
            assertThat(missingOrDoubled(newPrimary, spends.acknowledged()))
                    .as("acknowledged spendings missing (or twice) on the new primary")
                    .isEmpty();
            assertThat(LedgerAudit.mismatches(newPrimary)).isEmpty();
        }
    }

    private static List<String> missingOrDoubled(String url, Queue<String> acknowledged) throws Exception {
        List<String> wrong = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT count(*) FROM spendings WHERE id = ?")) {
            for (String id : acknowledged) {
                ps.setString(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (rs.getInt(1) != 1) {
                        wrong.add(id);
                    }
                }
            }
        }
        return wrong;
    }
}
