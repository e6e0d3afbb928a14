package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.PgBouncer;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SpendBook;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.TokenTraffic;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * CONTRACT §12, PostgreSQL as production runs it: through a real PgBouncer in transaction pooling
 * (with {@code --db-pooler transaction}), where one server session serves many clients, so nothing
 * session-scoped may be used: no server-side prepared statements, no start-up options.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class PgBouncerTest {
    private static final int THREADS = 16;
    private static final int OPERATIONS_PER_THREAD = 60;
    private static final long OPENING_BALANCE = 20_000;
    /** CONTRACT §12 via the issue: a spend stuck behind a lock is answered within this. */
    private static final Duration LOCKED_SPEND_LIMIT = Duration.ofSeconds(8);

    @Test
    void mixedTrafficThroughTransactionPoolingAnswersNoServerErrorAndKeepsTheLedgerRight() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (PgBouncer bouncer = PgBouncer.inFrontOf(url);
                TestNode node = TestNode.start(bouncer.proxied(url), "--db-pooler", "transaction")) {
            Fixtures fixtures = new Fixtures(node);
            SpendBook book = new SpendBook();
            List<Fixtures.Caller> spenders = List.of(opened(fixtures, book), opened(fixtures, book));
            TokenTraffic traffic = new TokenTraffic(
                    List.of(node.baseUrl()),
                    spenders,
                    List.of(opened(fixtures, book)),
                    book,
                    TokenTraffic.Mix.EVERYTHING);
            Map<String, Integer> readStatuses = new ConcurrentHashMap<>();
            AtomicInteger reads = new AtomicInteger();

            CompletableFuture<Void> running = traffic.start(THREADS, OPERATIONS_PER_THREAD);
            Api reader = node.caller(spenders.getFirst().key());
            while (!running.isDone()) {
                for (String path : List.of("/api/pulse", "/api/tokens/spendings?limit=20", "/api/tokens/plan")) {
                    Reply reply = reader.get(path);
                    readStatuses.merge(path + " " + reply.status(), 1, Integer::sum);
                    reads.incrementAndGet();
                }
            }
            running.join();

            assertThat(readStatuses.keySet())
                    .as("history, pulse and plan reads")
                    .allMatch(s -> s.endsWith(" 200"));
            assertThat(reads.get()).isPositive();
            assertThat(book.acknowledgedSpendings()).isPositive();
            // The book counts any spend, revert, read or credit answer other than 2xx/402/409 as a problem.
            book.assertAccountsAgree(node.admin(), traffic.callersByAccount(node.baseUrl()));
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    @Test
    void aSpendBehindAnOutsideRowLockIsAnswered503InTimeBecauseTheTimeoutTravelsWithTheTransaction() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (PgBouncer bouncer = PgBouncer.inFrontOf(url);
                TestNode node = TestNode.start(
                        bouncer.proxied(url), "--db-pooler", "transaction", "--db-statement-timeout-ms", "2000")) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());

            Reply stuck;
            long tookNanos;
            try (Connection blocker = DriverManager.getConnection(url)) {
                blocker.setAutoCommit(false);
                try (PreparedStatement lock =
                        blocker.prepareStatement("SELECT balance FROM accounts WHERE id = ? FOR UPDATE")) {
                    lock.setString(1, caller.accountId());
                    lock.execute();
                }
                long start = System.nanoTime();
                stuck = api.post("/api/tokens/spend/100");
                tookNanos = System.nanoTime() - start;
                blocker.rollback();
            }

            assertThat(stuck.status()).as(stuck.toString()).isEqualTo(503);
            assertThat(stuck.code()).isIn(Fault.ACCOUNT_BUSY.code(), Fault.DATABASE_UNAVAILABLE.code());
            assertThat(stuck.header("Retry-After")).isPresent();
            assertThat(Duration.ofNanos(tookNanos)).isLessThan(LOCKED_SPEND_LIMIT);
            assertThat(api.balance()).isEqualTo(1000);
            assertThat(api.post("/api/tokens/spend/100").status()).isEqualTo(201);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    @Test
    void behindATransactionPoolerEveryTransactionCarriesTheStatementTimeout() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        try (PgBouncer bouncer = PgBouncer.inFrontOf(url);
                Database database = Database.open(new Database.Settings(
                        bouncer.proxied(url),
                        2,
                        Duration.ofSeconds(5),
                        Duration.ofMillis(700),
                        Duration.ofSeconds(10),
                        true))) {
            assertThat(database.read(PgBouncerTest::statementTimeout)).isEqualTo("700ms");
            assertThat(database.inTransaction(PgBouncerTest::statementTimeout)).isEqualTo("700ms");
        }
    }

    private static String statementTimeout(Connection connection) throws java.sql.SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SHOW statement_timeout")) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static Fixtures.Caller opened(Fixtures fixtures, SpendBook book) {
        Fixtures.Caller caller = fixtures.caller(OPENING_BALANCE);
        book.opened(caller.accountId(), OPENING_BALANCE);
        return caller;
    }
}
