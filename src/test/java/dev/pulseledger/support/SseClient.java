package dev.pulseledger.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A Server-Sent Events client for tests: connects to a stream, parses events as the HTML standard
 * describes (id, event, data; comment lines apart), and hands them over in order.
 */
public final class SseClient implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /** One dispatched event. */
    public record Event(String id, String type, JsonNode data) {}

    private final HttpResponse<InputStream> response;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> comments = new LinkedBlockingQueue<>();
    private final Thread reader;
    private final CountDownLatch ended = new CountDownLatch(1);

    private SseClient(HttpResponse<InputStream> response) {
        this.response = response;
        // A refused stream carries a problem document instead, read by problem().
        this.reader = response.statusCode() == 200 ? Thread.ofVirtual().start(this::read) : null;
    }

    /** Opens a stream; the response status and headers are available at once. */
    public static SseClient connect(String url, String apiKey, Optional<String> lastEventId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("X-ApiKey", apiKey)
                .header("Accept", "text/event-stream");
        lastEventId.ifPresent(id -> request.header("Last-Event-ID", id));
        try {
            return new SseClient(CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public int status() {
        return response.statusCode();
    }

    public String contentType() {
        return header("Content-Type").orElse("");
    }

    public Optional<String> header(String name) {
        return response.headers().firstValue(name);
    }

    private void read() {
        try (BufferedReader lines =
                new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String id = null;
            String type = "message";
            StringBuilder data = new StringBuilder();
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isEmpty()) {
                    if (!data.isEmpty()) {
                        events.add(new Event(id, type, JSON.readTree(data.toString())));
                    }
                    type = "message";
                    data.setLength(0);
                } else if (line.startsWith(":")) {
                    comments.add(line.substring(1).trim());
                } else if (line.startsWith("id: ")) {
                    id = line.substring(4);
                } else if (line.startsWith("event: ")) {
                    type = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
        } catch (IOException e) {
            // The stream ended: closed by the test or by the server.
        } finally {
            ended.countDown();
        }
    }

    /** True once the server has ended the stream, waiting up to {@code timeout}. */
    public boolean ended(Duration timeout) {
        try {
            return ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The next event, waiting up to {@code timeout}; empty if none came. */
    public Optional<Event> next(Duration timeout) {
        return Waiting.next(events, timeout);
    }

    /** The next event, failing the test if none comes within 20 seconds. */
    public Event next() {
        return next(Duration.ofSeconds(20)).orElseThrow(() -> new AssertionError("No event arrived on the stream"));
    }

    /** The next comment line (such as a heartbeat), waiting up to {@code timeout}. */
    public Optional<String> nextComment(Duration timeout) {
        return Waiting.next(comments, timeout);
    }

    /** The response body of a refused stream (a problem document). */
    public JsonNode problem() {
        try {
            return JSON.readTree(response.body().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            response.body().close();
        } catch (IOException e) {
            // closing anyway
        }
        if (reader != null) {
            reader.interrupt();
        }
    }
}
