package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nodes started at the same moment on an empty PostgreSQL database: the schema is made once. */
class ConcurrentStartTest {
    private static final int NODES = 3;

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void nodesStartingAtOnceOnAnEmptyDatabaseMigrateItExactlyOnce() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = startAtOnce(url);
        try {
            try (Database database = LedgerAudit.open(url)) {
                assertThat(database.read(ConcurrentStartTest::migrationsAppliedMoreThanOnceOrFailed))
                        .as("schema versions applied twice or failed")
                        .isZero();
                assertThat(database.read(ConcurrentStartTest::freePlans)).isEqualTo(1);
            }
            for (TestNode node : nodes) {
                Fixtures.Caller caller = new Fixtures(node).caller(100);
                assertThat(node.caller(caller.key())
                                .post("/api/tokens/spend/100")
                                .status())
                        .isEqualTo(201);
            }
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    private static List<TestNode> startAtOnce(String url) {
        List<CompletableFuture<TestNode>> starts =
                Simultaneously.start(NODES, i -> TestNode.start(url, "--db-pool-size", "3"));
        try {
            return starts.stream().map(CompletableFuture::join).toList();
        } catch (CompletionException e) {
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new))
                    .exceptionally(error -> null)
                    .join();
            starts.stream()
                    .filter(start -> !start.isCompletedExceptionally())
                    .forEach(start -> start.join().close());
            throw e;
        }
    }

    private static int migrationsAppliedMoreThanOnceOrFailed(Connection connection) throws SQLException {
        String sql = "SELECT count(*) FROM (SELECT version FROM flyway_schema_history WHERE version IS NOT NULL"
                + " GROUP BY version HAVING count(*) <> 1 OR NOT bool_and(success)) broken";
        try (PreparedStatement ps = connection.prepareStatement(sql);
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static int freePlans(Connection connection) throws SQLException {
        try (PreparedStatement ps = connection.prepareStatement("SELECT count(*) FROM plans WHERE id = 'free'");
                ResultSet rs = ps.executeQuery()) {
            rs.next();
            return rs.getInt(1);
        }
    }
}
