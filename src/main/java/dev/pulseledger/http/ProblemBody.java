package dev.pulseledger.http;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import org.jspecify.annotations.Nullable;

/** The RFC 9457 body: the standard members, the stable {@code code}, then the problem's own fields if any. */
public record ProblemBody(
        String type,
        String title,
        int status,
        String detail,
        String code,
        @JsonUnwrapped @Nullable Record extension) {

    public static ProblemBody of(ProblemException problem) {
        return new ProblemBody(
                "https://pulseledger.dev/problems/" + problem.code().code().replace('_', '-'),
                problem.title(),
                problem.status(),
                problem.detail(),
                problem.code().code(),
                problem.extension().orElse(null));
    }
}
