package dev.pulseledger.http;

import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

/**
 * A cacheable response body with its entity tag and Cache-Control, sent in full or, to a client
 * whose If-None-Match names the current tag, as an empty 304 (RFC 9110 conditional GET).
 */
@SuppressWarnings("ArrayRecordComponent") // the body is sent as is, never compared or changed
public record Representation(String contentType, byte[] body, String etag, String cacheControl) {

    /** A representation tagged by the hash of its body. */
    public static Representation of(String contentType, byte[] body, String cacheControl) {
        return new Representation(contentType, body, EntityTags.of(body), cacheControl);
    }

    public void send(ServerRequest req, ServerResponse res) {
        res.header(HeaderNames.ETAG, etag);
        res.header(HeaderNames.CACHE_CONTROL, cacheControl);
        if (isCurrentFor(req)) {
            res.status(Status.NOT_MODIFIED_304);
            res.send();
            return;
        }
        Responses.send(res, 200, contentType, body);
    }

    private boolean isCurrentFor(ServerRequest req) {
        // Several If-None-Match lines are one list (RFC 9110 §5.3).
        return req.headers().contains(HeaderNames.IF_NONE_MATCH)
                && EntityTags.noneMatchNames(
                        String.join(
                                ",",
                                req.headers().get(HeaderNames.IF_NONE_MATCH).allValues()),
                        etag);
    }
}
