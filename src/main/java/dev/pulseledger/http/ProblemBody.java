package dev.pulseledger.http;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import java.util.Map;

/** The RFC 9457 body: the standard members, the stable {@code code}, then any extensions. */
public record ProblemBody(
        String type,
        String title,
        int status,
        String detail,
        String code,
        @JsonAnyGetter Map<String, Object> extensions) {

    public static ProblemBody of(ProblemException problem) {
        return new ProblemBody(
                "https://pulseledger.dev/problems/" + problem.code().replace('_', '-'),
                problem.title(),
                problem.status(),
                problem.detail(),
                problem.code(),
                problem.extensions());
    }
}
