package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.TokenTraffic;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes, each with its own pool, caches and spend writer, on one PostgreSQL database (CONTRACT
 * §5: every rule holds across nodes). Correctness must come from the database, never from a node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class MultiNodeTest {
    private static final int NODES = 3;
    private static final int POOL_SIZE = 4;
    private static final long OPENING_BALANCE = 4_000;
    /** CONTRACT §2 and issue 3: changes show on every node within this bound. */
    private static final Duration PROPAGATION_BOUND = Duration.ofSeconds(5);

    private final List<TestNode> nodes = new ArrayList<>();
    private String databaseUrl;

    @BeforeAll
    void startNodes() {
        databaseUrl = TestStore.POSTGRESQL.newDatabaseUrl();
        for (int i = 0; i < NODES; i++) {
            nodes.add(TestNode.start(databaseUrl, "--db-pool-size", Integer.toString(POOL_SIZE)));
        }
    }

    @AfterAll
    void stopNodes() {
        nodes.forEach(TestNode::close);
    }

    @Test
    void everyAnswerAndTheLedgerAgreeWhenThreeNodesShareTheTraffic() throws Exception {
        Fixtures fixtures = new Fixtures(nodes.getFirst());
        SpendBook book = new SpendBook();
        List<Fixtures.Caller> spenders = List.of(opened(fixtures, book), opened(fixtures, book));
        TokenTraffic traffic = new TokenTraffic(
                nodes.stream().map(TestNode::baseUrl).toList(),
                spenders,
                List.of(opened(fixtures, book)),
                book,
                TokenTraffic.Mix.EVERYTHING);

        traffic.run(64, 15);
        traffic.revertStorm(spenders.getFirst(), 16, 3);

        assertThat(book.acknowledgedSpendings()).isPositive();
        book.assertAccountsAgree(
                nodes.get(1).admin(), traffic.callersByAccount(nodes.get(2).baseUrl()));
        assertThat(LedgerAudit.mismatches(databaseUrl)).isEmpty();
        assertThat(connectionsToTheDatabase())
                .as("connections of %d nodes with --db-pool-size %d, plus two test pools", NODES, POOL_SIZE)
                .isLessThanOrEqualTo(NODES * POOL_SIZE + 4);
    }

    @Test
    void oneIdempotencyKeySentToEveryNodeAtOnceSpendsOnce() {
        Fixtures fixtures = new Fixtures(nodes.getFirst());
        SpendBook book = new SpendBook();
        Fixtures.Caller caller = opened(fixtures, book);
        int rounds = 10;
        int requestsPerNode = 2;
        for (int round = 0; round < rounds; round++) {
            Map<String, String> key = Map.of("Idempotency-Key", "multinode-round-" + round);
            List<Reply> replies = Simultaneously.run(
                    NODES * requestsPerNode,
                    i -> nodes.get(i % NODES).caller(caller.key()).send("POST", "/api/tokens/spend/100", null, key));
            replies.forEach(reply -> book.spent(caller.accountId(), 100, true, reply));
            List<Reply> spent = replies.stream().filter(r -> r.status() == 201).toList();
            assertThat(spent).as("round %d: %s", round, replies).isNotEmpty();
            assertThat(spent)
                    .as("round %d: every 201 is the same spending", round)
                    .allSatisfy(
                            r -> assertThat(r.json()).isEqualTo(spent.getFirst().json()));
            assertThat(spent.stream()
                            .filter(r -> r.header("Idempotent-Replayed").isEmpty()))
                    .as("round %d: answers that were not replays", round)
                    .hasSize(1);
        }
        book.assertAccountsAgree(
                nodes.getFirst().admin(),
                Map.of(caller.accountId(), nodes.get(1).caller(caller.key())));
        assertThat(nodes.get(2).caller(caller.key()).balance()).isEqualTo(OPENING_BALANCE - rounds * 100L);
    }

    @Test
    void aKeyRevokedOnOneNodeIsRefusedOnEveryNodeWithinFiveSeconds() {
        Fixtures fixtures = new Fixtures(nodes.getFirst());
        String accountId = fixtures.account(100);
        Fixtures.IssuedKey issued = fixtures.issueKey(accountId);
        String key = issued.key();
        for (TestNode node : nodes) {
            assertThat(node.caller(key).get("/api/tokens/balance").status()).isEqualTo(200);
        }

        long revokedAtNanos = System.nanoTime();
        assertThat(nodes.get(1).admin().delete("/admin/keys/" + issued.id()).status())
                .isEqualTo(204);

        Map<Integer, Reply> last = pollEveryNode(
                revokedAtNanos, node -> node.caller(key).get("/api/tokens/balance"), r -> r.status() == 401);
        assertThat(last.values())
                .as("answers to the revoked key, %s after the revoke", PROPAGATION_BOUND)
                .allSatisfy(reply -> assertThat(reply.code()).isEqualTo("invalid_api_key"));
    }

    @Test
    void aServiceStatusChangedOnOneNodeShowsOnEveryNodeWithinFiveSeconds() {
        Fixtures fixtures = new Fixtures(nodes.getFirst());
        String key = fixtures.caller(0).key();
        Map<String, Object> service =
                Map.of("name", "Multi-node API", "status", "operational", "spotlighted", true, "position", 1);
        assertThat(nodes.getFirst()
                        .admin()
                        .put("/admin/services/multinode-api", service)
                        .status())
                .isIn(200, 201);
        pollEveryNode(System.nanoTime(), node -> node.caller(key).get("/api/pulse"), statusIs("operational"));

        long changedAtNanos = System.nanoTime();
        Reply patched = nodes.get(2).admin().patch("/admin/services/multinode-api", Map.of("status", "major_outage"));
        assertThat(patched.status()).as(patched.toString()).isEqualTo(200);

        Map<Integer, Reply> last =
                pollEveryNode(changedAtNanos, node -> node.caller(key).get("/api/pulse"), statusIs("major_outage"));
        assertThat(last.values())
                .as("the pulse on every node, %s after the change", PROPAGATION_BOUND)
                .allMatch(statusIs("major_outage"));
    }

    /**
     * Asks every node until each has given a matching answer, or the propagation bound since {@code
     * startNanos} has passed; returns each node's last answer. Once a node has matched it must keep
     * matching: a cache flapping back to the old state would be a bug too.
     */
    private Map<Integer, Reply> pollEveryNode(
            long startNanos, Function<TestNode, Reply> ask, Predicate<Reply> settled) {
        Map<Integer, Reply> last = new HashMap<>();
        Map<Integer, Boolean> matched = new HashMap<>();
        long deadlineNanos = startNanos + PROPAGATION_BOUND.toNanos();
        do {
            for (int i = 0; i < NODES; i++) {
                Reply reply = ask.apply(nodes.get(i));
                last.put(i, reply);
                boolean ok = settled.test(reply);
                assertThat(ok || !matched.getOrDefault(i, false))
                        .as("node %d went back to the old answer: %s", i, reply)
                        .isTrue();
                matched.put(i, ok);
            }
            if (matched.values().stream().allMatch(ok -> ok)) {
                return last;
            }
            sleep(Duration.ofMillis(100));
        } while (System.nanoTime() < deadlineNanos);
        return last;
    }

    private static Predicate<Reply> statusIs(String status) {
        return reply -> {
            for (JsonNode service : reply.json().path("services")) {
                if (service.path("id").asText().equals("multinode-api")) {
                    return service.path("status").asText().equals(status);
                }
            }
            return false;
        };
    }

    private static Fixtures.Caller opened(Fixtures fixtures, SpendBook book) {
        Fixtures.Caller caller = fixtures.caller(OPENING_BALANCE);
        book.opened(caller.accountId(), OPENING_BALANCE);
        return caller;
    }

    private int connectionsToTheDatabase() throws Exception {
        try (Database database = LedgerAudit.open(databaseUrl)) {
            return database.read(connection -> count(connection));
        }
    }

    private static int count(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
