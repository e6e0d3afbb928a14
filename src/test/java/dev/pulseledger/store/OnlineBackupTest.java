package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.TokenTraffic;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The SQLite backup that docs/PRODUCTION.md recommends, taken while spends run, is consistent. */
class OnlineBackupTest {
    private static final int ACKNOWLEDGED_BEFORE_BACKUP = 20;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void vacuumIntoWhileSpendsRunGivesACopyWhoseLedgerAddsUp() throws Exception {
        Path copy = Files.createTempDirectory("pulseledger-backup").resolve("copy.db");
        Fixtures.Caller caller;
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures fixtures = new Fixtures(node);
            SpendBook book = new SpendBook();
            caller = fixtures.caller(100_000);
            book.opened(caller.accountId(), 100_000);
            TokenTraffic traffic = new TokenTraffic(
                    List.of(node.baseUrl()), List.of(caller), List.of(), book, TokenTraffic.Mix.EVERYTHING);
            CompletableFuture<Void> load = traffic.start(8, 60);
            while (book.acknowledgedSpendings() < ACKNOWLEDGED_BEFORE_BACKUP && !load.isDone()) {
                Thread.sleep(Duration.ofMillis(10));
            }

            try (Connection connection = DriverManager.getConnection(node.databaseUrl());
                    PreparedStatement backup = connection.prepareStatement("VACUUM INTO ?")) {
                backup.setString(1, copy.toString());
                backup.execute();
            }
            load.join();
        }

        String copyUrl = "jdbc:sqlite:" + copy;
        assertThat(LedgerAudit.mismatches(copyUrl)).isEmpty();
        try (TestNode restored = TestNode.start(copyUrl)) {
            assertThat(restored.caller(caller.key())
                            .get("/api/tokens/spendings?limit=100")
                            .json()
                            .get("data"))
                    .as("spendings acknowledged before the backup began")
                    .hasSizeGreaterThanOrEqualTo(ACKNOWLEDGED_BEFORE_BACKUP);
        }
    }
}
