package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.RawHttp;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Every size and count limit answers with its own status as a problem document. */
class ServerLimitsTest {
    @Test
    void oversizedHeadersPathsAndBodiesGetTheirOwnStatus() throws Exception {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            Api admin = node.admin();
            Reply headers = admin.send("GET", "/health/live", null, Map.of("X-Big", "h".repeat(20_000)));
            Reply path = admin.get("/admin/plans/" + "p".repeat(ServerSettings.MAX_REQUEST_LINE_BYTES));
            Reply body = admin.post("/admin/plans", "{\"id\": \"" + "b".repeat(Requests.MAX_BODY_BYTES) + "\"}");
            Reply deep = admin.post("/admin/plans", "[".repeat(1000) + "]".repeat(1000));
            Reply longKey = node.caller("k".repeat(500)).get("/api/tokens/balance");

            assertProblem(headers, 431, "request_header_fields_too_large");
            assertProblem(path, 414, "uri_too_long");
            assertProblem(body, 413, "payload_too_large");
            assertProblem(deep, 400, "invalid_json");
            assertProblem(longKey, 401, "invalid_api_key");
        }
    }

    @Test
    @SuppressWarnings("try") // the busy socket is closed early on purpose, to free the slot mid-test
    void requestsBeyondTheConcurrencyLimitGet503OverloadedWithRetryAfter() throws Exception {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--max-concurrent-requests", "1");
                Socket busy = new Socket(
                        InetAddress.getLoopbackAddress(), node.application().port())) {
            // A request whose body is still on its way holds the only request slot.
            OutputStream out = busy.getOutputStream();
            out.write(("POST /admin/plans HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + TestNode.ADMIN_KEY
                            + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\":")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Thread.sleep(500);

            Reply overloaded = node.anonymous().get("/health/live");

            assertProblem(overloaded, 503, "overloaded");
            assertThat(overloaded.header("Retry-After")).contains("1");
            busy.close();
            byte[] live = "GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            Optional<Integer> status = RawHttp.status(node.application().port(), live);
            while (!status.equals(Optional.of(200)) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                status = RawHttp.status(node.application().port(), live);
            }
            assertThat(status).as("served again once the slot is free").contains(200);
        }
    }

    private static void assertProblem(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.contentType()).isEqualTo("application/problem+json");
        assertThat(reply.code()).isEqualTo(code);
        assertThat(reply.header("X-Request-Id")).isPresent();
        assertThat(reply.text()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
