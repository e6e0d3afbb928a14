package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.SmallDisk;
import dev.pulseledger.support.SpendLoop;
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
import java.util.Queue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
            SpendLoop spends = new SpendLoop(Fault.STORAGE_FULL.code());
            try (TestNode node = TestNode.start(url);
                    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                Api api = node.caller(new Fixtures(node).caller(1_000_000_000).key());
                assertThat(api.post("/api/tokens/spend/1").status()).isEqualTo(201);

                disk.fillLeaving(256 * 1024);
                List<Future<?>> spenders = new ArrayList<>();
                for (int i = 0; i < SPENDERS; i++) {
                    int spender = i;
                    spenders.add(threads.submit(() -> spends.run(api, spender)));
                }
                Waiting.until("spends answered storage_full", () -> spends.countOf(503) >= FULL_ANSWERS_WANTED);
                Waiting.until(
                        "readiness reports that the node cannot write",
                        () -> node.anonymous().get("/health/ready").status() == 503);

                disk.free();
                long freedNanos = System.nanoTime();
                Waiting.until("a spend succeeds after space came back", () -> spends.last201Nanos() > freedNanos);
                Duration recovery = Duration.ofNanos(spends.last201Nanos() - freedNanos);
                System.out.printf(
                        "DiskFullTest: first 201 %.2f s after space came back%n", recovery.toMillis() / 1000.0);
                Waiting.until(
                        "readiness recovers",
                        () -> node.anonymous().get("/health/ready").status() == 200);
                spends.stop();
                for (Future<?> spender : spenders) {
                    spender.get();
                }

                assertThat(recovery).isLessThanOrEqualTo(RECOVERY_LIMIT);
                assertThat(spends.statuses().keySet()).as("statuses").containsOnly(201, 503);
                assertThat(spends.unexpected503s())
                        .as("503s that are not a clean storage_full problem")
                        .isEmpty();
                assertThat(Duration.ofNanos(spends.slowestNanos())).isLessThan(HANG);
            }
            System.out.printf(
                    "DiskFullTest: %s, slowest answer %d ms, %d log lines%n",
                    spends.statuses(), Duration.ofNanos(spends.slowestNanos()).toMillis(), log.printedLineCount());
            assertThat(log.printedLineCount())
                    .as("log lines of the whole episode:\n" + String.join("\n", log.lines()))
                    .isLessThanOrEqualTo(MAX_LOG_LINES);
            assertEveryAcknowledgedSpendingIsInTheFile(url, spends.acknowledged());
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
}
