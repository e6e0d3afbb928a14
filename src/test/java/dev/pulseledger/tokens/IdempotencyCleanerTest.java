package dev.pulseledger.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.ledger.write.IdempotencyCleaner;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.ScheduledSweep;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IdempotencyCleanerTest {
    private static final Duration RETENTION = Duration.ofHours(24);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void recordsAreKeptForTheirRetentionThenForgotten(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = open(node)) {
            Api caller = node.caller(new Fixtures(node).caller(1000).key());
            Reply first = spend(caller, "order-1");
            assertThat(first.status()).isEqualTo(201);

            Clock almostExpired = Clock.offset(Clock.systemUTC(), RETENTION.minusMinutes(5));
            assertThat(cleaner(database, almostExpired, 100, 10).runOnce()).isZero();
            assertThat(spend(caller, "order-1").header("Idempotent-Replayed")).contains("true");

            Clock expired = Clock.offset(Clock.systemUTC(), RETENTION.plusMinutes(5));
            assertThat(cleaner(database, expired, 100, 10).runOnce()).isEqualTo(1);
            Reply again = spend(caller, "order-1");

            assertThat(again.status()).isEqualTo(201);
            assertThat(again.header("Idempotent-Replayed")).isEmpty();
            assertThat(again.json().get("spendingId").asText())
                    .isNotEqualTo(first.json().get("spendingId").asText());
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void oneRunDeletesAtMostItsBatchesAndTheNextRunTheRest(TestStore store) throws SQLException {
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                Database database = open(node)) {
            String accountId = new Fixtures(node).account(1000);
            insertRecords(node.databaseUrl(), accountId, 250);
            IdempotencyCleaner cleaner =
                    cleaner(database, Clock.offset(Clock.systemUTC(), RETENTION.plusMinutes(5)), 100, 2);

            assertThat(cleaner.runOnce()).isEqualTo(200);
            assertThat(count(node.databaseUrl())).isEqualTo(50);
            assertThat(cleaner.runOnce()).isEqualTo(50);
            assertThat(count(node.databaseUrl())).isZero();
        }
    }

    private static Reply spend(Api caller, String idempotencyKey) {
        return caller.send("POST", "/api/tokens/spend/10", null, Map.of("Idempotency-Key", idempotencyKey));
    }

    private static IdempotencyCleaner cleaner(Database database, Clock clock, int batchSize, int batches) {
        return new IdempotencyCleaner(
                database, clock, RETENTION, new ScheduledSweep.Limits(Duration.ofHours(1), batchSize, batches));
    }

    private static Database open(TestNode node) {
        return Database.open(new Database.Settings(
                node.databaseUrl(), 2, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ZERO));
    }

    private static void insertRecords(String url, String accountId, int count) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement(
                        "INSERT INTO idempotency_keys (account_id, key, amount, outcome, balance, created_at)"
                                + " VALUES (?, ?, 1, 'insufficient_balance', 0, ?)")) {
            for (int i = 0; i < count; i++) {
                ps.setString(1, accountId);
                ps.setString(2, "key-" + i);
                ps.setLong(3, System.currentTimeMillis() - i);
                ps.addBatch();
            }
            ps.executeBatch();
        }
    }

    private static long count(String url) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT COUNT(*) FROM idempotency_keys");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
