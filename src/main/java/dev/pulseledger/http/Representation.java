package dev.pulseledger.http;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/**
 * A cacheable response body with its entity tag and Cache-Control, sent in full or, to a client
 * whose If-None-Match names the current tag, as an empty 304 (RFC 9110 conditional GET). A body
 * with a gzipped form goes gzipped to a client that accepts it, as a variant with a tag of its own.
 */
@SuppressWarnings("ArrayRecordComponent") // the bodies are sent as they are, never compared or changed
public record Representation(
        String contentType, byte[] body, String etag, String cacheControl, Optional<byte[]> gzipped) {

    /** A representation tagged by the hash of its body, gzipped once here when that pays. */
    public static Representation of(String contentType, byte[] body, String cacheControl) {
        return new Representation(contentType, body, EntityTags.of(body), cacheControl, Gzip.compress(body));
    }

    public void send(ServerRequest req, ServerResponse res) {
        boolean sendGzipped = gzipped.isPresent()
                && req.headers().contains(HeaderNames.ACCEPT_ENCODING)
                && Gzip.accepted(joined(req, HeaderNames.ACCEPT_ENCODING));
        // Tells caches that the answer depends on Accept-Encoding, on the 304 as on the 200.
        gzipped.ifPresent(ignored -> res.header(HeaderNames.VARY, HeaderNames.ACCEPT_ENCODING.defaultCase()));
        String tag = sendGzipped ? EntityTags.variant(etag, "gzip") : etag;
        res.header(HeaderNames.ETAG, tag);
        res.header(HeaderNames.CACHE_CONTROL, cacheControl);
        if (req.headers().contains(HeaderNames.IF_NONE_MATCH)
                && EntityTags.noneMatchNames(joined(req, HeaderNames.IF_NONE_MATCH), tag)) {
            res.status(Status.NOT_MODIFIED_304);
            res.send();
            return;
        }
        if (sendGzipped) {
            res.header(HeaderNames.CONTENT_ENCODING, "gzip");
        }
        Responses.send(res, 200, contentType, sendGzipped ? gzipped.get() : body);
    }

    /** Several lines of a list header are one list (RFC 9110 §5.3). */
    private static String joined(ServerRequest req, HeaderName name) {
        return String.join(",", req.headers().get(name).allValues());
    }
}
