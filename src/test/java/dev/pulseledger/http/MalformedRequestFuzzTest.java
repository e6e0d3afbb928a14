package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.RawHttp;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/**
 * Thousands of generated malformed requests against a live node (CONTRACT §6.6): never a 5xx,
 * never a state change, nothing secret or stack-traced in the log, and a well-formed caller
 * served correctly throughout. The seed is printed with any failure to replay it.
 */
class MalformedRequestFuzzTest {
    private static final int REQUESTS = 2000;
    private static final long BALANCE = 5000;
    private static final String SNAPSHOT = "SELECT"
            + " (SELECT COUNT(*) FROM plans) || '/' || (SELECT COUNT(*) FROM accounts) || '/'"
            + " || (SELECT COUNT(*) FROM api_keys WHERE revoked_at IS NULL) || '/' || (SELECT COUNT(*) FROM spendings)"
            + " || '/' || (SELECT COUNT(*) FROM spendings WHERE status = 'reverted')"
            + " || '/' || (SELECT COUNT(*) FROM ledger_entries) || '/' || (SELECT COUNT(*) FROM idempotency_keys)"
            + " || '/' || (SELECT COUNT(*) FROM services) || '/' || (SELECT SUM(balance) FROM accounts)"
            + " || '/' || (SELECT MAX(updated_at) FROM plans)";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void malformedRequestsNeverGet5xxNorChangeStateNorDisturbOthers(TestStore store) throws Exception {
        long seed = new Random().nextLong();
        ListAppender<ILoggingEvent> log = captureLog();
        try (TestNode node = TestNode.start(store.newDatabaseUrl());
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            Fixtures fixtures = new Fixtures(node);
            Fixtures.Caller caller = fixtures.caller(BALANCE);
            Api api = node.caller(caller.key());
            api.post("/api/tokens/spend/100");
            api.post("/api/tokens/spendings/"
                    + api.post("/api/tokens/spend/50").json().get("spendingId").asText() + "/revert");
            Reply bystanderBalance = api.get("/api/tokens/balance");
            String before = snapshot(node.databaseUrl());

            AtomicBoolean fuzzing = new AtomicBoolean(true);
            Future<Integer> bystander = threads.submit(() -> servedCorrectlyWhile(fuzzing, api, bystanderBalance));
            MalformedRequests requests =
                    new MalformedRequests(new Random(seed), caller.key(), TestNode.ADMIN_KEY, caller.accountId());
            List<String> serverErrors = new ArrayList<>();
            int answered = 0;
            for (int i = 0; i < REQUESTS; i++) {
                byte[] request = requests.next();
                Optional<Integer> status = RawHttp.status(node.application().port(), request);
                answered += status.isPresent() ? 1 : 0;
                if (status.filter(s -> s >= 500 && !(s == 505 && isHttp10(request)))
                        .isPresent()) {
                    serverErrors.add(status.get() + " for " + printable(request));
                }
            }
            fuzzing.set(false);

            assertThat(serverErrors).as("seed " + seed).isEmpty();
            assertThat(answered)
                    .as("seed " + seed + ": most malformed requests get an answer")
                    .isGreaterThan(REQUESTS / 2);
            assertThat(bystander.get())
                    .as("seed " + seed + ": bystander requests")
                    .isPositive();
            assertThat(snapshot(node.databaseUrl())).as("seed " + seed).isEqualTo(before);
            assertThat(api.get("/api/tokens/balance").json()).isEqualTo(bystanderBalance.json());
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
            assertLogClean(log, caller.key(), seed);
        } finally {
            root().detachAppender(log);
        }
    }

    /** Reads the balance over and over while the fuzzing lasts; every answer must be the right one. */
    private static int servedCorrectlyWhile(AtomicBoolean fuzzing, Api api, Reply expected)
            throws InterruptedException {
        int served = 0;
        while (fuzzing.get()) {
            Reply reply = api.get("/api/tokens/balance");
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.json()).isEqualTo(expected.json());
            assertThat(api.get("/api/pulse").status()).isEqualTo(200);
            served++;
            Thread.sleep(20);
        }
        return served;
    }

    private static void assertLogClean(ListAppender<ILoggingEvent> log, String callerKey, long seed) {
        for (ILoggingEvent event : log.list) {
            String line = event.getFormattedMessage()
                    + (event.getThrowableProxy() == null
                            ? ""
                            : event.getThrowableProxy().getMessage());
            assertThat(event.getLevel().isGreaterOrEqual(Level.ERROR))
                    .as("seed " + seed + ": error logged: " + line)
                    .isFalse();
            assertThat(event.getThrowableProxy())
                    .as("seed " + seed + ": stack trace logged: " + line)
                    .isNull();
            assertThat(line).doesNotContain(callerKey).doesNotContain(TestNode.ADMIN_KEY);
        }
    }

    private static ListAppender<ILoggingEvent> captureLog() {
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        root().addAppender(appender);
        return appender;
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }

    private static String snapshot(String databaseUrl) throws SQLException {
        try (Connection connection = DriverManager.getConnection(databaseUrl);
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery(SNAPSHOT)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static boolean isHttp10(byte[] request) {
        String text = new String(request, StandardCharsets.ISO_8859_1);
        int lineEnd = text.indexOf('\n');
        return (lineEnd < 0 ? text : text.substring(0, lineEnd)).contains(" HTTP/1.0");
    }

    private static String printable(byte[] request) {
        String text = new String(request, 0, Math.min(request.length, 300), StandardCharsets.ISO_8859_1);
        return text.replaceAll("[^\\x20-\\x7e]", "·");
    }
}
