package dev.pulseledger.support;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpHeaders;
import java.util.Optional;

/** A response as tests see it: status, headers and the body parsed as JSON when it is JSON. */
public record Reply(int status, HttpHeaders headers, String text, JsonNode json) {
    public Optional<String> header(String name) {
        return headers.firstValue(name);
    }

    public String contentType() {
        return header("Content-Type").orElse("");
    }

    /** The stable problem code of an error response. */
    public String code() {
        return json.path("code").asText();
    }

    @Override
    public String toString() {
        return status + " " + text;
    }
}
