package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A private {@code redis-server} on a free loopback port, without persistence, that a test can stop
 * and start again on the same port. CI installs the Debian package (see {@code .ci/run}).
 */
public final class RedisServer implements AutoCloseable {
    private static final Path BINARY = Path.of("/usr/bin/redis-server");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);

    private final int port;
    private Process process;

    private RedisServer(int port) {
        this.port = port;
    }

    public static RedisServer start() {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: install the redis-server package");
        }
        RedisServer server = new RedisServer(freePort());
        server.startAgain();
        return server;
    }

    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts the server again on its port, after {@link #stop()}, and waits until it accepts connections. */
    public void startAgain() {
        try {
            process = new ProcessBuilder(List.of(
                            BINARY.toString(),
                            "--port",
                            Integer.toString(port),
                            "--bind",
                            "127.0.0.1",
                            "--save",
                            "",
                            "--appendonly",
                            "no"))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Waiting.until("redis-server accepts connections on port " + port, this::accepts);
    }

    /** Kills the server at once, as a crash would. */
    public void stop() {
        process.destroyForcibly();
        try {
            process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
