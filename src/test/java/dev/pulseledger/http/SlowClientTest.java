package dev.pulseledger.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.RawHttp;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Clients that send a request a byte at a time must neither starve others nor hold a connection for ever. */
class SlowClientTest {
    private static final int SLOW_CLIENTS = 60;
    private static final int MAX_CONNECTIONS = 20;
    private static final Duration BYTE_INTERVAL = Duration.ofMillis(100);
    /** A slow client gives up after this; the server must have cut it off long before. */
    private static final Duration SLOW_CLIENT_PATIENCE = Duration.ofSeconds(30);

    @Test
    void manySlowClientsDoNotStopOthersBeingServedAndEachIsCutOff() throws Exception {
        try (TestNode node = TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--max-connections",
                        Integer.toString(MAX_CONNECTIONS),
                        "--request-timeout-s",
                        "2",
                        "--idle-timeout-s",
                        "2");
                ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            int port = node.application().port();
            List<Future<Boolean>> slowClients = new ArrayList<>();
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                // Half dribble the request line, half send it and dribble the headers.
                String start = i % 2 == 0 ? "GET /health/live?" : "GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ";
                slowClients.add(threads.submit(() -> isCutOffWhileDribbling(port, start)));
            }
            Thread.sleep(500);

            for (int i = 0; i < 5; i++) {
                assertThat(statusOfQuickRequest(port)).contains(200);
                Thread.sleep(300);
            }
            for (Future<Boolean> slowClient : slowClients) {
                assertThat(slowClient.get())
                        .as("slow client cut off by the server")
                        .isTrue();
            }
        }
    }

    /** True when the server closes the connection before the client's patience runs out. */
    private static boolean isCutOffWhileDribbling(int port, String start) throws IOException, InterruptedException {
        long giveUp = System.nanoTime() + SLOW_CLIENT_PATIENCE.toNanos();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            byte[] bytes = (start + "a".repeat(1000)).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; System.nanoTime() < giveUp; i = (i + 1) % bytes.length) {
                out.write(bytes[i]);
                out.flush();
                Thread.sleep(BYTE_INTERVAL);
            }
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    private static Optional<Integer> statusOfQuickRequest(int port) throws IOException {
        return RawHttp.status(
                port,
                "GET /health/live HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
    }
}
