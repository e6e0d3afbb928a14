package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.keys.Secrets;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CORS for /api/ when origins are configured (off by default), and the optional access log. */
class CorsAndAccessLogTest {
    private static final String APP = "https://app.example.com";

    @Test
    void anAllowedOriginGetsItsPreflightAndMayReadResponsesAndTheirHeaders() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--cors-allowed-origins", APP)) {
            String key = new Fixtures(node).caller(100).key();
            Reply preflight = node.anonymous()
                    .send(
                            "OPTIONS",
                            "/api/tokens/spend/10",
                            null,
                            Map.of(
                                    "Origin", APP,
                                    "Access-Control-Request-Method", "POST",
                                    "Access-Control-Request-Headers", "x-apikey, idempotency-key"));
            assertThat(preflight.status()).isEqualTo(204);
            assertThat(preflight.header("Access-Control-Allow-Origin")).contains(APP);
            assertThat(preflight.header("Access-Control-Allow-Methods").orElseThrow())
                    .contains("POST");
            assertThat(preflight.header("Access-Control-Allow-Headers").orElseThrow())
                    .contains("X-ApiKey")
                    .contains("Idempotency-Key");

            Reply balance = node.caller(key).send("GET", "/api/tokens/balance", null, Map.of("Origin", APP));
            assertThat(balance.status()).isEqualTo(200);
            assertThat(balance.header("Access-Control-Allow-Origin")).contains(APP);
            assertThat(balance.header("Access-Control-Expose-Headers").orElseThrow())
                    .contains("RateLimit-Remaining")
                    .contains("Retry-After");

            Reply other =
                    node.caller(key).send("GET", "/api/tokens/balance", null, Map.of("Origin", "https://evil.example"));
            assertThat(other.header("Access-Control-Allow-Origin")).isEmpty();
            Reply admin = node.admin().send("GET", "/admin/plans", null, Map.of("Origin", APP));
            assertThat(admin.header("Access-Control-Allow-Origin"))
                    .as("operator paths stay closed")
                    .isEmpty();
        }
    }

    @Test
    void corsIsOffByDefault() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Reply preflight = node.anonymous()
                    .send(
                            "OPTIONS",
                            "/api/tokens/balance",
                            null,
                            Map.of("Origin", APP, "Access-Control-Request-Method", "GET"));
            assertThat(preflight.status()).isEqualTo(405);
            assertThat(preflight.header("Access-Control-Allow-Origin")).isEmpty();
        }
    }

    @Test
    void theAccessLogHasOneLinePerRequestAndNeverTheKey() {
        try (LogCapture logs = new LogCapture();
                TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--access-log")) {
            String key = new Fixtures(node).caller(100).key();
            node.caller(key).get("/api/tokens/balance?limit=secret-query");
            assertThat(node.caller(key).get("/api/" + key).status()).isEqualTo(404);
            // A line is written once the response is out, so the client may see the response first.
            Waiting.until(
                    "both requests are logged",
                    () -> logs.lines().stream()
                                    .filter(line -> line.startsWith("dev.pulseledger.access "))
                                    .count()
                            >= 4);
            assertThat(logs.lines())
                    .filteredOn(line -> line.startsWith("dev.pulseledger.access "))
                    .anyMatch(line -> line.contains("\"GET /api/tokens/balance\" 200"))
                    .anyMatch(line -> line.contains("\"GET /api/pl_…\" 404"))
                    .noneMatch(line -> line.contains(key) || line.contains("secret-query"));
        }
    }

    @Test
    void aFloodOfRefusedKeysIsSampledInTheAccessLog() {
        try (LogCapture logs = new LogCapture();
                TestNode node = TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--access-log",
                        "--auth-failures-per-minute",
                        "5",
                        "--auth-failure-hold-ms",
                        "0")) {
            long start = System.nanoTime();
            for (int i = 0; i < 300; i++) {
                node.caller(Secrets.newCallerKey()).get("/api/tokens/balance");
            }
            // The lines left out are counted, and the next refusal logged says how many.
            Waiting.until("a refusal line says how many were left out", () -> {
                node.caller(Secrets.newCallerKey()).get("/api/tokens/balance");
                return logs.lines().stream().anyMatch(line -> line.contains("more 401/429 lines left out"));
            });
            long seconds = 1 + (System.nanoTime() - start) / 1_000_000_000L;
            long refusalLines = logs.lines().stream()
                    .filter(line -> line.startsWith("dev.pulseledger.access ")
                            && (line.contains(" 401 ") || line.contains(" 429 ")))
                    .count();
            assertThat(refusalLines)
                    .as("refusal lines of over 300 refusals in %d s", seconds)
                    .isLessThanOrEqualTo(AccessLog.REFUSAL_LINES_PER_SECOND * (seconds + 2));
        }
    }

    @Test
    void thereIsNoAccessLogUnlessAskedFor() {
        try (LogCapture logs = new LogCapture();
                TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            node.anonymous().get("/health/live");
            assertThat(logs.lines()).noneMatch(line -> line.startsWith("dev.pulseledger.access "));
        }
    }
}
