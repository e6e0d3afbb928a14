package dev.pulseledger.status.upstream;

import dev.pulseledger.outbound.OutboundClient;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads an upstream status document over HTTP with a conditional GET: bounded connect and read
 * times, a bounded body, and redirects followed by hand (at most a few), each hop checked by the
 * guard first, so a redirect never leads to a private address or to another scheme.
 */
public final class UpstreamFetcher implements AutoCloseable {
    /** A Statuspage summary of a large page is well under this. */
    public static final int MAX_BODY_BYTES = 1024 * 1024;

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(10);
    private static final int MAX_REDIRECTS = 3;

    /** What a read gave. */
    public sealed interface Result {
        /** A new document and its tag, if the server gave one. */
        @SuppressWarnings("ArrayRecordComponent") // read once, as it came, never compared
        record Fetched(byte[] body, Optional<String> etag) implements Result {}

        /** The document is unchanged since the tag sent. */
        record NotModified() implements Result {}

        /** It could not be read; {@code reason} is for operators (no secrets, no body). */
        record Failed(String reason) implements Result {}
    }

    private final UpstreamGuard guard;
    private final OutboundClient client;

    public UpstreamFetcher(UpstreamGuard guard) {
        this.guard = guard;
        this.client = new OutboundClient(CONNECT_TIMEOUT);
    }

    public Result fetch(String url, Optional<String> etag) {
        URI uri = URI.create(url);
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            URI target = uri;
            Optional<String> refused = guard.refuse(target).or(() -> guard.refuseAddresses(target));
            if (refused.isPresent()) {
                return new Result.Failed("refused " + (hop == 0 ? "URL" : "redirect") + ": " + refused.get());
            }
            HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                    .timeout(READ_TIMEOUT)
                    .header("Accept", "application/json")
                    .header("User-Agent", "Pulseledger upstream poller")
                    .GET();
            etag.ifPresent(tag -> request.header("If-None-Match", tag));
            HttpResponse<InputStream> response;
            try {
                response = client.get().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            } catch (IOException e) {
                return new Result.Failed("unreachable: " + e.getClass().getSimpleName());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result.Failed("interrupted");
            }
            int status = response.statusCode();
            if (status == 304) {
                close(response);
                return new Result.NotModified();
            }
            if (status >= 300 && status < 400) {
                close(response);
                Optional<String> location = response.headers().firstValue("Location");
                if (location.isEmpty()) {
                    return new Result.Failed("redirect without a Location");
                }
                try {
                    uri = uri.resolve(location.get());
                } catch (IllegalArgumentException e) {
                    return new Result.Failed("redirect to an invalid URL");
                }
                continue;
            }
            if (status != 200) {
                close(response);
                return new Result.Failed("HTTP " + status);
            }
            try (InputStream in = response.body()) {
                byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
                if (body.length > MAX_BODY_BYTES) {
                    return new Result.Failed("body larger than " + MAX_BODY_BYTES + " bytes");
                }
                return new Result.Fetched(body, response.headers().firstValue("ETag"));
            } catch (IOException e) {
                return new Result.Failed("unreachable: " + e.getClass().getSimpleName());
            }
        }
        return new Result.Failed("more than " + MAX_REDIRECTS + " redirects");
    }

    private static void close(HttpResponse<InputStream> response) {
        try {
            response.body().close();
        } catch (IOException e) {
            // Nothing was wanted from this body.
        }
    }

    @Override
    public void close() {
        client.close();
    }
}
