package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.NodeMetrics;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SpendLoop;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One account's row lock held from outside (an operator's session, a report that uses {@code FOR
 * UPDATE}) while other accounts spend through the same nodes from many threads (CONTRACT §12): the others
 * keep completing, every one 201; the locked account's callers are answered 503 {@code account_busy} with
 * Retry-After within the lock wait; it spends again as soon as the lock is free; the ledger verifies.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class LockedAccountTest {
    private static final Duration LOCK_WAIT = Duration.ofMillis(1500);
    private static final long OPENING_BALANCE = 1_000_000;
    private static final int OTHER_ACCOUNTS = 7;
    private static final int OTHER_THREADS = 14;
    private static final int LOCKED_THREADS = 3;
    /** Spends of the other accounts while the lock is held: a loose count, not a rate. */
    private static final int OTHERS_DURING_LOCK = 100;
    /** The acceptance bound on every answer to the locked account's callers. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(6);
    /** The acceptance bound on the lock's end: the account spends again within it. */
    private static final Duration SPENDS_AGAIN_WITHIN = Duration.ofSeconds(2);

    private static final Instant JAN_31 = Instant.parse("2026-01-31T10:00:00Z");
    private static final Instant FEB_1 = Instant.parse("2026-02-01T00:00:00Z");
    private static final Instant FEB_2 = Instant.parse("2026-02-02T00:00:00Z");

    @Test
    void otherAccountsKeepSpendingOnOneNodeWhileOneAccountIsLockedFromOutside() throws Exception {
        othersKeepSpendingWhileOneAccountIsLocked(1);
    }

    @Test
    void otherAccountsKeepSpendingOnTwoNodesWhileOneAccountIsLockedFromOutside() throws Exception {
        othersKeepSpendingWhileOneAccountIsLocked(2);
    }

    @Test
    void aBusyAccountsLaterSpendNeverOvertakesAnEarlierOne() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (TestNode node = TestNode.start(url, "--account-lock-wait-ms", "10000");
                Connection outside = DriverManager.getConnection(url)) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            lock(outside, caller.accountId());

            CompletableFuture<Reply> first = CompletableFuture.supplyAsync(() -> api.post("/api/tokens/spend/100"));
            Waiting.until("the first spend waits in its account's lane", () -> diverted(node) >= 1);
            CompletableFuture<Reply> second = CompletableFuture.supplyAsync(() -> api.post("/api/tokens/spend/200"));
            Waiting.until("the second spend queues behind it", () -> diverted(node) >= 2);
            outside.rollback();

            assertThat(first.get(30, TimeUnit.SECONDS).json().path("balance").asLong())
                    .as("the first spend is applied first")
                    .isEqualTo(900);
            assertThat(second.get(30, TimeUnit.SECONDS).json().path("balance").asLong())
                    .isEqualTo(700);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    @Test
    void theSweepSkipsALockedAccountAndKeepsExpiringTheOthers() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        TestClock clock = new TestClock(JAN_31);
        try (TestNode node = TestNode.start(url, clock, "--account-lock-wait-ms", "30000");
                Connection outside = DriverManager.getConnection(url)) {
            Fixtures fixtures = new Fixtures(node);
            String locked = accountWithCreditExpiringAt(node, fixtures, FEB_1);
            String first = accountWithCreditExpiringAt(node, fixtures, FEB_1);
            String second = accountWithCreditExpiringAt(node, fixtures, FEB_2);
            lock(outside, locked);

            clock.set(FEB_1);
            Waiting.until("the sweep expires the other account's credit", () -> balance(node, first) == 10);
            clock.set(FEB_2);
            assertThat(Waiting.within(Duration.ofSeconds(10), () -> balance(node, second) == 10))
                    .as("the next sweep comes within seconds, not after the locked account's wait of 30 s")
                    .isTrue();
            // Read from the row: a read through the API would bring the account up to date, and wait for it.
            assertThat(storedBalance(url, locked))
                    .as("the locked account, skipped")
                    .isEqualTo(510);

            outside.rollback();
            Waiting.until(
                    "the sweep comes back to the account once its lock is free", () -> balance(node, locked) == 10);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    private static String accountWithCreditExpiringAt(TestNode node, Fixtures fixtures, Instant expiresAt) {
        String accountId = fixtures.account(10);
        Reply credit = node.admin()
                .post(
                        "/admin/accounts/" + accountId + "/credits",
                        Map.of("amount", 500, "reason", "trial", "expiresAt", expiresAt.toString()));
        assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
        return accountId;
    }

    private static long balance(TestNode node, String accountId) {
        return node.admin()
                .get("/admin/accounts/" + accountId)
                .json()
                .path("balance")
                .asLong();
    }

    private static long storedBalance(String url, String accountId) {
        try (Database database = LedgerAudit.open(url)) {
            return database.read(connection -> {
                try (PreparedStatement ps = connection.prepareStatement("SELECT balance FROM accounts WHERE id = ?")) {
                    ps.setString(1, accountId);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }
            });
        }
    }

    private void othersKeepSpendingWhileOneAccountIsLocked(int nodeCount) throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        SpendLoop others = new SpendLoop("no 503 is expected");
        SpendLoop locked = new SpendLoop("account_busy");
        try (Connection outside = DriverManager.getConnection(url)) {
            for (int i = 0; i < nodeCount; i++) {
                nodes.add(TestNode.start(url, "--account-lock-wait-ms", Long.toString(LOCK_WAIT.toMillis())));
            }
            Fixtures fixtures = new Fixtures(nodes.getFirst());
            List<Fixtures.Caller> otherCallers = new ArrayList<>();
            for (int i = 0; i < OTHER_ACCOUNTS; i++) {
                otherCallers.add(fixtures.caller(OPENING_BALANCE));
            }
            Fixtures.Caller lockedCaller = fixtures.caller(OPENING_BALANCE);
            for (int i = 0; i < OTHER_THREADS; i++) {
                Api api = nodes.get(i % nodeCount)
                        .caller(otherCallers.get(i % OTHER_ACCOUNTS).key());
                int spender = i;
                threads.add(Thread.ofPlatform().start(() -> others.run(api, spender)));
            }
            for (int i = 0; i < LOCKED_THREADS; i++) {
                Api api = nodes.get(i % nodeCount).caller(lockedCaller.key());
                int spender = OTHER_THREADS + i;
                threads.add(Thread.ofPlatform().start(() -> locked.run(api, spender)));
            }
            Waiting.until("every account spends", () -> others.countOf(201) >= 50 && locked.countOf(201) >= 5);

            lock(outside, lockedCaller.accountId());
            long othersBefore = others.countOf(201);
            Waiting.until(
                    "the locked account's callers are answered account_busy",
                    () -> locked.countOf(503) >= 2L * LOCKED_THREADS);
            Waiting.until(
                    "the other accounts keep spending while the lock is held",
                    () -> others.countOf(201) >= othersBefore + OTHERS_DURING_LOCK);
            long busyAnswers = locked.countOf(503);
            outside.rollback();
            long releasedAt = System.nanoTime();
            boolean spendsAgain = Waiting.within(SPENDS_AGAIN_WITHIN, () -> locked.last201Nanos() - releasedAt > 0);
            others.stop();
            locked.stop();
            for (Thread thread : threads) {
                thread.join();
            }

            assertThat(spendsAgain)
                    .as("the locked account spends again within %s of the lock's end", SPENDS_AGAIN_WITHIN)
                    .isTrue();
            assertThat(others.statuses()).as("the other accounts' answers").containsOnlyKeys(201);
            assertThat(locked.statuses()).as("the locked account's answers").containsOnlyKeys(201, 503);
            assertThat(locked.unexpected503s())
                    .as("503s other than account_busy with Retry-After")
                    .isEmpty();
            assertThat(busyAnswers).isGreaterThanOrEqualTo(2L * LOCKED_THREADS);
            assertThat(Duration.ofNanos(locked.slowestNanos()))
                    .as("the locked account's slowest answer")
                    .isLessThan(ANSWERED_WITHIN);
            long othersSpent = 0;
            for (Fixtures.Caller caller : otherCallers) {
                othersSpent +=
                        OPENING_BALANCE - nodes.getFirst().caller(caller.key()).balance();
            }
            assertThat(othersSpent).as("tokens the other accounts spent").isEqualTo(others.countOf(201));
            assertThat(OPENING_BALANCE
                            - nodes.getLast().caller(lockedCaller.key()).balance())
                    .as("tokens the locked account spent")
                    .isEqualTo(locked.countOf(201));
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            others.stop();
            locked.stop();
            nodes.forEach(TestNode::close);
        }
    }

    private static double diverted(TestNode node) {
        return NodeMetrics.sum(node.baseUrl(), "pulseledger_spend_diverted_total");
    }

    /** An outside session takes the account's row lock and keeps its transaction open. */
    private static void lock(Connection outside, String accountId) throws SQLException {
        outside.setAutoCommit(false);
        try (PreparedStatement ps = outside.prepareStatement("SELECT 1 FROM accounts WHERE id = ? FOR UPDATE")) {
            ps.setString(1, accountId);
            ps.executeQuery().close();
        }
    }
}
