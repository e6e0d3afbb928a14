package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** CONTRACT §2 and the brief: however keys are sent, right or wrong, no log line shows one. */
class SecretsStayOutOfLogsContractTest {
    private static final Pattern ANY_CALLER_KEY = Pattern.compile("pl_[0-9A-Za-z]{20,}");
    private static final String UNKNOWN_KEY = "pl_Zq8uUnknownKeyThatWasNeverIssued0";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void noLogLineEverShowsACallerKeyOrTheAdminKey(TestStore store) {
        List<String> keys = new ArrayList<>(List.of(TestNode.ADMIN_KEY, UNKNOWN_KEY));
        List<String> lines;
        String console;
        try (LogCapture capture = new LogCapture()) {
            try (TestNode node = TestNode.start(store.newDatabaseUrl())) {
                Fixtures fixtures = new Fixtures(node);
                Fixtures.Caller caller = fixtures.caller(1000);
                String revoked = fixtures.key(caller.accountId());
                keys.add(caller.key());
                keys.add(revoked);
                revokeAll(node.admin(), caller.accountId(), revoked);

                for (String key : keys) {
                    useEverywhere(node, caller.accountId(), key);
                }
                useEverywhere(node, caller.accountId(), caller.key());
                console = node.console();
            }
            lines = capture.lines();
        }

        assertThat(lines)
                .as("the capture works: the node's start-up line was seen")
                .anySatisfy(line -> assertThat(line).contains("listening on http://"));
        for (String key : keys) {
            assertThat(lines).noneSatisfy(line -> assertThat(line).contains(key));
        }
        assertThat(lines).noneSatisfy(line -> assertThat(line).containsPattern(ANY_CALLER_KEY));
        assertThat(console).doesNotContain(keys.toArray(String[]::new));
    }

    /** The key as the caller key, and as every other part of good and bad requests. */
    private static void useEverywhere(TestNode node, String accountId, String key) {
        Api asCaller = node.caller(key);
        Api admin = node.admin();
        Map<String, String> keyHeaders = Map.of("Idempotency-Key", key, "X-Request-Id", key);
        asCaller.get("/api/pulse");
        asCaller.get("/api/tokens/balance");
        asCaller.get("/api/tokens/plan");
        asCaller.send("POST", "/api/tokens/spend/1", null, keyHeaders);
        asCaller.post("/api/tokens/spend/" + key);
        asCaller.get("/api/tokens/spendings?limit=" + key + "&cursor=" + key);
        asCaller.get("/api/tokens/spendings/" + key);
        asCaller.post("/api/tokens/spendings/" + key + "/revert");
        asCaller.get("/admin/accounts/" + accountId);
        asCaller.get("/" + key);

        admin.post("/admin/accounts", Map.of(key, 1));
        admin.post("/admin/accounts", "{\"name\": \"" + key + "\", ");
        admin.post("/admin/accounts", Map.of("name", key, "planId", key));
        admin.post("/admin/plans", Map.of("id", key, "name", key));
        admin.post("/admin/accounts/" + accountId + "/credits", Map.of("amount", key, "reason", key));
        admin.post("/admin/accounts/" + key + "/keys", Map.of("name", key));
        admin.delete("/admin/keys/" + key);
        admin.put("/admin/services/" + key, Map.of("name", key, "status", key));
        admin.send("POST", "/admin/accounts", key, Map.of("Content-Type", "text/plain"));
        admin.send("POST", "/admin/accounts", "{\"name\":\"" + key.repeat(3000) + "\"}", Map.of());

        RawHttp.exchange(node, "GET /api/pulse?" + key + " HTTP/1.1\r\nX-ApiKey: " + key + "\r\nBroken\r\n\r\n");
        RawHttp.exchange(node, "GET /" + key + " " + key + "\r\n\r\n");
        RawHttp.exchange(node, "GET /api/pulse HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + key.repeat(2000) + "\r\n\r\n");
        RawHttp.exchange(
                node,
                "POST /api/tokens/spend/1 HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + key
                        + "\r\nContent-Length: 5\r\nConnection: close\r\n\r\n" + key);
    }

    private static void revokeAll(Api admin, String accountId, String secret) {
        admin.get("/admin/accounts/" + accountId + "/keys").json().path("data").forEach(key -> {
            if (secret.startsWith(key.path("prefix").asText())) {
                admin.delete("/admin/keys/" + key.path("id").asText());
            }
        });
    }
}
