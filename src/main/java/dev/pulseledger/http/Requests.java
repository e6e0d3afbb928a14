package dev.pulseledger.http;

import io.helidon.http.Header;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.HttpException;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads headers, query parameters and bodies from requests, within limits. */
public final class Requests {
    public static final HeaderName API_KEY = HeaderNames.create("X-ApiKey");
    public static final int MAX_BODY_BYTES = 64 * 1024;
    /**
     * Helidon's own body limit. Bodies up to it are refused by {@link #body} once the handler runs,
     * which clients reliably hear as a 413; Helidon refuses larger ones before reading them, which
     * races the client's upload and may reach it as a connection reset instead.
     */
    public static final int MAX_DRAINED_BODY_BYTES = 1024 * 1024;

    public static final int DEFAULT_PAGE_SIZE = 20;
    public static final int MAX_PAGE_SIZE = 100;

    private static final Instant EARLIEST_TIMESTAMP = Instant.parse("2000-01-01T00:00:00Z");
    private static final Instant LATEST_TIMESTAMP = Instant.parse("9999-01-01T00:00:00Z");
    private static final Header CONNECTION_CLOSE = HeaderValues.CONNECTION_CLOSE;

    private Requests() {}

    public static Optional<String> apiKey(ServerRequest req) {
        return req.headers().first(API_KEY);
    }

    public static Optional<String> header(ServerRequest req, HeaderName name) {
        return req.headers().first(name);
    }

    /** A path parameter; one with control characters names nothing (and NUL would break PostgreSQL). */
    public static String pathParam(ServerRequest req, String name) {
        String value = req.path().pathParameters().get(name);
        if (value.chars().anyMatch(Character::isISOControl)) {
            throw new ProblemException(ProblemCode.NOT_FOUND, "No resource lives at this path.");
        }
        return value;
    }

    /** The {@code limit} query parameter: 1 to 100, 20 when absent. */
    public static int pageSize(ServerRequest req) {
        Optional<String> text = query(req, "limit");
        if (text.isEmpty()) {
            return DEFAULT_PAGE_SIZE;
        }
        try {
            int limit = Integer.parseInt(text.get());
            if (limit >= 1 && limit <= MAX_PAGE_SIZE) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ProblemException(
                ProblemCode.INVALID_LIMIT, "Query parameter 'limit' must be a whole number from 1 to 100.");
    }

    /**
     * A timestamp query parameter (RFC 3339, from the year 2000 to 9998), or a 400 {@code invalid} naming
     * it, with the code that names the parameter ({@code invalid_<name>}).
     */
    public static Optional<Instant> timestamp(ServerRequest req, String name, ProblemCode invalid) {
        return query(req, name)
                .map(text -> Times.parse(text)
                        .filter(at -> !at.isBefore(EARLIEST_TIMESTAMP) && at.isBefore(LATEST_TIMESTAMP))
                        .orElseThrow(() -> new ProblemException(
                                invalid,
                                "Query parameter '" + name + "' must be an RFC 3339 timestamp such as"
                                        + " 2026-11-21T10:00:00Z, from the year 2000 on.")));
    }

    public static Optional<String> query(ServerRequest req, String name) {
        if (!req.query().contains(name)) {
            return Optional.empty();
        }
        if (req.query().all(name).size() > 1) {
            throw new ProblemException(
                    ProblemCode.INVALID_REQUEST, "Query parameter '" + name + "' must be given at most once.");
        }
        return Optional.of(req.query().get(name));
    }

    /** The body of a JSON request: 415 for another media type, 413 above the size limit. */
    public static byte[] jsonBody(ServerRequest req) {
        Optional<String> contentType = req.headers().first(HeaderNames.CONTENT_TYPE);
        if (contentType.isEmpty() || !isJson(contentType.get())) {
            throw new ProblemException(
                    ProblemCode.UNSUPPORTED_MEDIA_TYPE, "Send the request body as application/json.");
        }
        return body(req);
    }

    /** Like {@link #jsonBody}, for requests whose body may be left out. */
    public static Optional<byte[]> optionalJsonBody(ServerRequest req) {
        boolean declared = req.headers().first(HeaderNames.CONTENT_TYPE).isPresent()
                || req.headers()
                        .first(HeaderNames.CONTENT_LENGTH)
                        .filter(l -> !l.equals("0"))
                        .isPresent()
                || req.headers().first(HeaderNames.TRANSFER_ENCODING).isPresent();
        return declared ? Optional.of(jsonBody(req)) : Optional.empty();
    }

    /** The body of an HTML form post: 415 for another media type, 413 above the size limit. */
    public static byte[] formBody(ServerRequest req) {
        Optional<String> contentType = req.headers().first(HeaderNames.CONTENT_TYPE);
        if (contentType.isEmpty() || !hasMediaType(contentType.get(), "application/x-www-form-urlencoded")) {
            throw new ProblemException(
                    ProblemCode.UNSUPPORTED_MEDIA_TYPE, "Send the form as application/x-www-form-urlencoded.");
        }
        return body(req);
    }

    /**
     * The fields of an HTML form post, each with its values in the order sent: 415 for another media type,
     * 413 above the size limit, 400 {@code invalid_body} above {@code maxFields} fields or for text that is
     * not URL-encoded.
     */
    public static Map<String, List<String>> formFields(ServerRequest req, int maxFields) {
        String body = new String(formBody(req), StandardCharsets.UTF_8);
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (body.isEmpty()) {
            return fields;
        }
        String[] pairs = body.split("&", maxFields + 1);
        if (pairs.length > maxFields) {
            throw new ProblemException(ProblemCode.INVALID_BODY, "A form has at most " + maxFields + " fields.");
        }
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            String name = formDecode(equals < 0 ? pair : pair.substring(0, equals));
            fields.computeIfAbsent(name, n -> new ArrayList<>())
                    .add(equals < 0 ? "" : formDecode(pair.substring(equals + 1)));
        }
        return fields;
    }

    private static String formDecode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ProblemException(ProblemCode.INVALID_BODY, "The form is not valid URL-encoded text.");
        }
    }

    private static boolean isJson(String contentType) {
        return hasMediaType(contentType, "application/json");
    }

    private static boolean hasMediaType(String contentType, String expected) {
        String mediaType = contentType.split(";", 2)[0].trim();
        return mediaType.equalsIgnoreCase(expected);
    }

    private static byte[] body(ServerRequest req) {
        if (!req.content().hasEntity()) {
            return new byte[0];
        }
        InputStream in = req.content().inputStream();
        byte[] bytes;
        try {
            bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        } catch (IOException | RuntimeException e) {
            throw unreadable(e);
        }
        if (bytes.length > MAX_BODY_BYTES) {
            drain(in);
            throw tooLarge().withHeader(CONNECTION_CLOSE.name(), CONNECTION_CLOSE.get());
        }
        return bytes;
    }

    /**
     * Reads and drops the rest of a refused body, up to {@link #MAX_DRAINED_BODY_BYTES}, so that a
     * client still uploading gets to read its 413 instead of a reset connection. The connection is
     * closed after the 413 all the same: a client that sends too much is not served further.
     */
    private static void drain(InputStream in) {
        byte[] buffer = new byte[16 * 1024];
        long drainedBytes = 0;
        try {
            for (int read; drainedBytes <= MAX_DRAINED_BODY_BYTES && (read = in.read(buffer)) != -1; ) {
                drainedBytes += read;
            }
        } catch (IOException | RuntimeException e) {
            // The connection closes after the 413 anyway.
        }
    }

    /**
     * Malformed chunked framing, a client that stopped sending, or Helidon's own size limit. The
     * connection is closed after the answer, since the rest of the body cannot be trusted or skipped.
     */
    private static ProblemException unreadable(Exception e) {
        ProblemException problem =
                e instanceof HttpException http && http.status().code() == 413 ? tooLarge() : invalidBody();
        return problem.withHeader(CONNECTION_CLOSE.name(), CONNECTION_CLOSE.get());
    }

    /** A body that is not framed as its headers declare, or that stopped short of it. */
    public static ProblemException invalidBody() {
        return new ProblemException(ProblemCode.INVALID_BODY, "The request body could not be read.");
    }

    public static ProblemException tooLarge() {
        return new ProblemException(
                ProblemCode.PAYLOAD_TOO_LARGE, "The request body must be at most " + MAX_BODY_BYTES + " bytes.");
    }
}
