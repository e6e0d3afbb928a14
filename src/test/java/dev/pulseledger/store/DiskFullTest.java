package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SmallDisk;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.Waiting;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §12 on the embedded store: SQLite on a small tmpfs that 8 callers fill up. Every spend is
 * answered a clean 503 storage_full while the disk is full (no 500, no hang), the log stays short,
 * readiness says the node cannot write, and when space comes back spends work again at once with
 * nothing acknowledged lost.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class DiskFullTest {
    private static final int SPENDERS = 8;
    private static final int FULL_ANSWERS_WANTED = 200;
    private static final long MAX_LOG_LINES = 200;
    private static final Duration RECOVERY_LIMIT = Duration.ofSeconds(5);
    /** The default statement timeout (5 s) plus room for a loaded machine: beyond it a request hangs. */
    private static final Duration HANG = Duration.ofSeconds(15);

    @Test
    void aFullDiskIsAnsweredWithClean503sAndABoundedLogAndSpendsComeBackWithNothingLost() throws Exception {
        try (SmallDisk disk = SmallDisk.mount(16);
                LogCapture log = new LogCapture()) {
            String url = "jdbc:sqlite:" + disk.path().resolve("pulseledger.db");
            Spends spends = new Spends();
            try (TestNode node = TestNode.start(url);
                    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                Api api = node.caller(new Fixtures(node).caller(1_000_000_000).key());
                assertThat(api.post("/api/tokens/spend/1").status()).isEqualTo(201);

                disk.fillLeaving(256 * 1024);
                List<Future<?>> spenders = new ArrayList<>();
                for (int i = 0; i < SPENDERS; i++) {
                    int spender = i;
                    spenders.add(threads.submit(() -> spends.keepSpending(api, spender)));
                }
                Waiting.until("spends answered storage_full", () -> spends.countOf(503) >= FULL_ANSWERS_WANTED);
                Waiting.until(
                        "readiness reports that the node cannot write",
                        () -> node.anonymous().get("/health/ready").status() == 503);

                disk.free();
                long freedNanos = System.nanoTime();
                Waiting.until("a spend succeeds after space came back", () -> spends.last201Nanos.get() > freedNanos);
                Duration recovery = Duration.ofNanos(spends.last201Nanos.get() - freedNanos);
                System.out.printf(
                        "DiskFullTest: first 201 %.2f s after space came back%n", recovery.toMillis() / 1000.0);
                Waiting.until(
                        "readiness recovers",
                        () -> node.anonymous().get("/health/ready").status() == 200);
                spends.running.set(false);
                for (Future<?> spender : spenders) {
                    spender.get();
                }

                assertThat(recovery).isLessThanOrEqualTo(RECOVERY_LIMIT);
                assertThat(spends.statuses.keySet()).as("statuses").containsOnly(201, 503);
                assertThat(spends.unclean)
                        .as("503s that are not a clean storage_full problem")
                        .isEmpty();
                assertThat(Duration.ofNanos(spends.slowestNanos.get())).isLessThan(HANG);
            }
            assertThat(log.printedLineCount())
                    .as("log lines of the whole episode:\n" + String.join("\n", log.lines()))
                    .isLessThanOrEqualTo(MAX_LOG_LINES);
            assertEveryAcknowledgedSpendingIsInTheFile(url, spends.acknowledged);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    private static void assertEveryAcknowledgedSpendingIsInTheFile(String url, Queue<String> acknowledged)
            throws SQLException {
        try (Connection connection = DriverManager.getConnection(url)) {
            try (Statement statement = connection.createStatement();
                    ResultSet rs = statement.executeQuery("PRAGMA integrity_check")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("ok");
            }
            List<String> missing = new ArrayList<>();
            try (PreparedStatement ps = connection.prepareStatement("SELECT 1 FROM spendings WHERE id = ?")) {
                for (String id : acknowledged) {
                    ps.setString(1, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (!rs.next()) {
                            missing.add(id);
                        }
                    }
                }
            }
            assertThat(acknowledged).isNotEmpty();
            assertThat(missing)
                    .as("acknowledged spendings missing from the file")
                    .isEmpty();
        }
    }

    /** What the spenders were answered. */
    private static final class Spends {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        private final Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
        private final Queue<String> unclean = new ConcurrentLinkedQueue<>();
        private final AtomicLong last201Nanos = new AtomicLong();
        private final AtomicLong slowestNanos = new AtomicLong();

        void keepSpending(Api api, int spender) {
            for (int i = 0; running.get(); i++) {
                long start = System.nanoTime();
                Reply reply = api.send(
                        "POST", "/api/tokens/spend/1", null, Map.of("Idempotency-Key", "disk-" + spender + "-" + i));
                long end = System.nanoTime();
                slowestNanos.accumulateAndGet(end - start, Math::max);
                statuses.computeIfAbsent(reply.status(), s -> new AtomicLong()).incrementAndGet();
                if (reply.status() == 201) {
                    acknowledged.add(reply.json().path("spendingId").asText());
                    last201Nanos.accumulateAndGet(end, Math::max);
                } else if (reply.status() == 503 && !isCleanStorageFull(reply)) {
                    unclean.add(reply.toString());
                }
            }
        }

        long countOf(int status) {
            AtomicLong count = statuses.get(status);
            return count == null ? 0 : count.get();
        }

        private static boolean isCleanStorageFull(Reply reply) {
            return reply.contentType().startsWith("application/problem+json")
                    && Fault.STORAGE_FULL.code().equals(reply.code())
                    && reply.header("Retry-After").isPresent();
        }
    }
}
