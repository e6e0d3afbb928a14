package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Admin and caller keys are never interchangeable, and responses carry the security headers. */
class KeySeparationAndHeadersTest {
    private static final List<String> CALLER_GETS = List.of(
            "/api/pulse",
            "/api/tokens/balance",
            "/api/tokens/plan",
            "/api/tokens/spendings",
            "/api/tokens/spendings/sp_01aaaaaaaaaaaaaaaaaaaaaaaa");
    private static final List<String> ADMIN_GETS =
            List.of("/admin/plans", "/admin/accounts", "/admin/services", "/admin/plans/free");

    @Test
    void anAdminKeyIsNoCallerAndACallerKeyIsNoAdmin() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api admin = node.admin();
            Api api = node.caller(caller.key());

            for (String path : CALLER_GETS) {
                assertThat(admin.get(path).code()).as(path).isEqualTo("forbidden");
            }
            assertThat(admin.post("/api/tokens/spend/100").code()).isEqualTo("forbidden");
            for (String path : ADMIN_GETS) {
                assertThat(api.get(path).code()).as(path).isEqualTo("forbidden");
            }
            assertThat(api.post(
                                    "/admin/accounts/" + caller.accountId() + "/credits",
                                    Map.of("amount", 5, "reason", "x"))
                            .code())
                    .isEqualTo("forbidden");
            assertThat(api.get("/api/tokens/balance").json().get("balance").asLong())
                    .isEqualTo(1000);
        }
    }

    @Test
    void tokenAndOperatorResponsesAreNeverCachedAndNoResponseIsSniffed() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(100);
            Api api = node.caller(caller.key());
            Reply created = node.admin().post("/admin/accounts/" + caller.accountId() + "/keys", Map.of());

            for (Reply reply : List.of(
                    api.get("/api/tokens/balance"),
                    api.post("/api/tokens/spend/60"),
                    api.post("/api/tokens/spend/60"),
                    api.get("/api/tokens/spendings"),
                    node.anonymous().get("/api/tokens/balance"),
                    created)) {
                assertThat(reply.header("Cache-Control")).as(reply.toString()).contains("no-store");
                assertThat(reply.header("X-Content-Type-Options")).contains("nosniff");
            }
            for (Reply reply : List.of(
                    node.anonymous().get("/health/live"), node.anonymous().get("/no/such/path"))) {
                assertThat(reply.header("X-Content-Type-Options"))
                        .as(reply.toString())
                        .contains("nosniff");
            }
        }
    }

    @Test
    void noKeyEverReachesTheLog() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        log.start();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.addAppender(log);
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Fixtures.Caller caller = new Fixtures(node).caller(100);
            Api api = node.caller(caller.key());
            api.get("/api/tokens/balance");
            api.post("/api/tokens/spend/1000");
            node.caller(caller.key() + "x").get("/api/tokens/balance");
            node.admin().delete("/admin/keys/key_none");

            for (ILoggingEvent event : log.list) {
                String line = event.getFormattedMessage()
                        + (event.getThrowableProxy() == null
                                ? ""
                                : event.getThrowableProxy().getMessage());
                assertThat(line).doesNotContain(caller.key()).doesNotContain(TestNode.ADMIN_KEY);
            }
        } finally {
            root.detachAppender(log);
        }
    }
}
