package dev.pulseledger.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.NodeMetrics;
import dev.pulseledger.support.PostgresPair;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §18 against a real asynchronous streaming replica made by the test (initdb, pg_basebackup): two
 * nodes read history, usage and the pulse through it, a caller always reads its own spends, and a replica
 * paused, stopped and back never fails a request nor shows a read older than the allowed lag.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class ReadReplicaTest {
    private static final String REPLICA = "replica-1";
    private static final Duration MAX_LAG = Duration.ofSeconds(1);

    private static PostgresPair databases;
    private static TestNode first;
    private static TestNode second;

    @BeforeAll
    static void startPrimaryReplicaAndTwoNodes() throws Exception {
        databases = PostgresPair.startWithReadReplica();
        String[] flags = {
            "--read-database-url", databases.standbyUrl(), "--max-replica-lag-ms", Long.toString(MAX_LAG.toMillis())
        };
        first = TestNode.start(databases.primaryUrl(), flags);
        second = TestNode.start(databases.primaryUrl(), flags);
        Waiting.until("both nodes find the replica caught up", () -> lag(first) < 1 && lag(second) < 1);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (second != null) {
            second.close();
        }
        if (first != null) {
            first.close();
        }
        if (databases != null) {
            databases.close();
        }
    }

    @Test
    void aReadAfterTheCallersOwnSpendNeverMissesItWhicheverServerServesIt() {
        Api caller = first.caller(new Fixtures(first).caller(1_000_000).key());
        double replicaReadsBefore = replicaReads(first);
        double ownWritesFallbacksBefore = fallbacks(first, "own_writes");
        for (int i = 0; i < 60; i++) {
            String spent = spend(caller);
            assertThat(newestSpending(caller))
                    .as("the history right after spend " + i)
                    .isEqualTo(spent);
            if (i % 10 == 0) {
                // Once the replica has replayed past the spend, it serves this caller again: still right.
                double before = replicaReads(first);
                Waiting.until("the replica serves this caller's read", () -> {
                    assertThat(newestSpending(caller)).isEqualTo(spent);
                    return replicaReads(first) > before;
                });
            }
        }
        assertThat(replicaReads(first)).as("reads the replica served").isGreaterThan(replicaReadsBefore);
        assertThat(fallbacks(first, "own_writes"))
                .as("reads sent to the primary because of the caller's own spend")
                .isGreaterThan(ownWritesFallbacksBefore);
    }

    @Test
    void withReplayPausedBeyondTheAllowedLagHistoryStillShowsNewLinesServedByThePrimary() {
        String key = new Fixtures(first).caller(1_000_000).key();
        Api spender = first.caller(key);
        Api reader = second.caller(key); // another node: it knows nothing of the spends made on the first
        spend(spender);
        databases.pauseStandbyReplay(true);
        try {
            Waiting.until("the second node finds the replica beyond the allowed lag", () -> lag(second) > 1.2);
            double lagFallbacks = fallbacks(second, "lag");
            double replicaReads = replicaReads(second);
            for (int i = 0; i < 20; i++) {
                String spent = spend(spender);
                assertThat(newestSpending(reader))
                        .as("the other node's history right after spend " + i)
                        .isEqualTo(spent);
                assertThat(reader.get("/api/tokens/usage").status()).isEqualTo(200);
            }
            assertThat(fallbacks(second, "lag"))
                    .as("the lag fallback metric")
                    .isGreaterThanOrEqualTo(lagFallbacks + 40);
            assertThat(replicaReads(second))
                    .as("reads served by the paused replica")
                    .isEqualTo(replicaReads);
        } finally {
            databases.pauseStandbyReplay(false);
        }
        double readsAfterResume = replicaReads(second);
        Waiting.until("the replica serves reads again after replay resumes", () -> {
            assertThat(reader.get("/api/pulse").status()).isEqualTo(200);
            return replicaReads(second) > readsAfterResume;
        });
    }

    @Test
    void aReplicaStoppedUnderLoadFailsNoReadAndIsUsedAgainOnceBack() throws Exception {
        Fixtures fixtures = new Fixtures(first);
        AtomicBoolean running = new AtomicBoolean(true);
        Queue<String> wrong = new ConcurrentLinkedQueue<>();
        AtomicInteger reads = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 4; i++) {
                String key = fixtures.caller(1_000_000_000).key();
                Api api = (i % 2 == 0 ? first : second).caller(key);
                workers.add(threads.submit(() -> {
                    while (running.get()) {
                        String spent = spend(api);
                        String newest = newestSpending(api);
                        for (String path : List.of("/api/tokens/usage", "/api/pulse", "/api/pulse/incidents")) {
                            Reply reply = api.get(path);
                            if (reply.status() != 200) {
                                wrong.add(path + " answered " + reply);
                            }
                        }
                        if (!newest.equals(spent)) {
                            wrong.add("history missed " + spent + ", newest was " + newest);
                        }
                        reads.addAndGet(4);
                    }
                    return null;
                }));
            }
            Waiting.until("reads under load", () -> reads.get() > 200);
            databases.stopStandby();
            int readsWhenStopped = reads.get();
            Waiting.until("reads go on with the replica stopped", () -> reads.get() > readsWhenStopped + 400);
            assertThat(NodeMetrics.sum(first.baseUrl(), "pulseledger_replica_up"))
                    .isZero();
            double servedWhileDown = replicaReads(first) + replicaReads(second);
            databases.startStandby();
            Waiting.until(
                    "the replica serves reads again once back",
                    () -> replicaReads(first) + replicaReads(second) > servedWhileDown + 50);
            running.set(false);
            for (Future<?> worker : workers) {
                worker.get();
            }
        } finally {
            running.set(false);
        }
        assertThat(wrong)
                .as("reads that failed or missed the caller's own spend")
                .isEmpty();
        assertThat(NodeMetrics.sum(first.baseUrl(), "pulseledger_replica_up")).isEqualTo(1);
    }

    @Test
    void theReplicaMetricsDocsMetricsNamesAreExposed() {
        String scrape = first.anonymous().get("/metrics").text();
        for (String name : List.of(
                "pulseledger_replica_lag_seconds",
                "pulseledger_replica_up",
                "pulseledger_replica_reads_total",
                "pulseledger_replica_fallbacks_total",
                "pulseledger_replica_errors_total")) {
            assertThat(scrape).contains(name + "{");
        }
        assertThat(first.anonymous().get("/health/ready").status()).isEqualTo(200);
    }

    /** Spends 1 token and returns the spending's id (ids grow with time, as {@code sp_} plus a sortable part). */
    private static String spend(Api caller) {
        Reply reply = caller.post("/api/tokens/spend/1");
        assertThat(reply.status()).as("spend: %s", reply).isEqualTo(201);
        return reply.json().path("spendingId").asText();
    }

    private static String newestSpending(Api caller) {
        Reply reply = caller.get("/api/tokens/spendings?limit=1");
        assertThat(reply.status()).as("history: %s", reply).isEqualTo(200);
        JsonNode data = reply.json().path("data");
        return data.isEmpty() ? "" : data.get(0).path("spendingId").asText();
    }

    private static double lag(TestNode node) {
        return NodeMetrics.sum(node.baseUrl(), "pulseledger_replica_lag_seconds{replica=\"" + REPLICA + "\"}");
    }

    private static double replicaReads(TestNode node) {
        return NodeMetrics.sum(node.baseUrl(), "pulseledger_replica_reads_total{target=\"" + REPLICA + "\"}");
    }

    private static double fallbacks(TestNode node, String reason) {
        return NodeMetrics.sum(node.baseUrl(), "pulseledger_replica_fallbacks_total{reason=\"" + reason + "\"}");
    }
}
