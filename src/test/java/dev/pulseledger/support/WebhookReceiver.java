package dev.pulseledger.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * A local HTTP server that stands in for an operator's webhook endpoint: it records every request
 * and answers with scripted status codes (then {@code 200}, unless told to keep failing).
 */
public final class WebhookReceiver implements AutoCloseable {
    /** One request as the receiver saw it. */
    public record Received(Map<String, List<String>> headers, String body) {
        public String header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst())
                    .findFirst()
                    .orElse("");
        }
    }

    private final HttpServer server;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Integer> script = new ConcurrentLinkedQueue<>();
    private volatile int defaultStatus = 200;

    private WebhookReceiver(HttpServer server) {
        this.server = server;
    }

    public static WebhookReceiver start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            WebhookReceiver receiver = new WebhookReceiver(server);
            server.createContext("/", receiver::handle);
            server.start();
            return receiver;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Answers the next requests with these statuses, in order, before falling back to the default. */
    public WebhookReceiver answering(Integer... statuses) {
        script.addAll(List.of(statuses));
        return this;
    }

    /** The status for requests beyond the script. */
    public void answerByDefault(int status) {
        defaultStatus = status;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/hooks/pulseledger";
    }

    private void handle(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        received.add(new Received(Map.copyOf(exchange.getRequestHeaders()), body));
        Integer scripted = script.poll();
        exchange.sendResponseHeaders(scripted == null ? defaultStatus : scripted, -1);
        exchange.close();
    }

    /** The next request, waiting up to {@code timeout}; empty if none came. */
    public Optional<Received> next(Duration timeout) {
        return Waiting.next(received, timeout);
    }

    /** The next request, failing the test if none comes within 20 seconds. */
    public Received next() {
        return next(Duration.ofSeconds(20)).orElseThrow(() -> new AssertionError("No webhook request arrived"));
    }

    /** Every request received and not yet taken. */
    public List<Received> drain() {
        List<Received> all = new ArrayList<>();
        received.drainTo(all);
        return all;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
