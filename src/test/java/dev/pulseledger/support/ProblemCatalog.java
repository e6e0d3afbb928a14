package dev.pulseledger.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pulseledger.http.ProblemCode;
import java.io.IOException;
import java.util.Arrays;

/** Checks a problem reply against the catalog: its code is listed, and answered with the listed status. */
public final class ProblemCatalog {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ProblemCatalog() {}

    /** Whether {@code code} is in the catalog with {@code status} ({@code bad_request} with any 4xx). */
    public static boolean lists(String code, int status) {
        return Arrays.stream(ProblemCode.values())
                .anyMatch(listed -> listed.code().equals(code)
                        && (listed.answers(status)
                                || (listed == ProblemCode.BAD_REQUEST && status >= 400 && status < 500)));
    }

    /** Throws an AssertionError for a problem reply whose code the catalog does not list with its status. */
    public static void check(int status, String contentType, String body) {
        if (!contentType.startsWith("application/problem+json") || body.isEmpty()) {
            return;
        }
        String code;
        try {
            code = JSON.readTree(body).path("code").asText();
        } catch (IOException e) {
            throw new AssertionError("A problem reply that is not JSON: " + body, e);
        }
        if (!lists(code, status)) {
            throw new AssertionError(
                    "Answered " + status + " " + code + ", which the catalog (ProblemCode) does not list: " + body);
        }
    }
}
