package dev.pulseledger.status.subscribers;

import dev.pulseledger.http.ProblemCode;
import dev.pulseledger.http.ProblemException;
import dev.pulseledger.http.Requests;
import io.helidon.webserver.http.ServerRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A posted subscriber form ({@code application/x-www-form-urlencoded}), read within a bound on its fields. */
final class FormFields {
    /** A checkbox per service and a few more fields. */
    private static final int MAX_FIELDS = ServiceChoice.MAX_SERVICES + 10;

    private final Map<String, List<String>> fields;

    private FormFields(Map<String, List<String>> fields) {
        this.fields = fields;
    }

    static FormFields read(ServerRequest req) {
        String body = new String(Requests.formBody(req), StandardCharsets.UTF_8);
        Map<String, List<String>> fields = new LinkedHashMap<>();
        if (body.isEmpty()) {
            return new FormFields(fields);
        }
        String[] pairs = body.split("&", MAX_FIELDS + 1);
        if (pairs.length > MAX_FIELDS) {
            throw new ProblemException(ProblemCode.INVALID_BODY, "A form has at most " + MAX_FIELDS + " fields.");
        }
        for (String pair : pairs) {
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            fields.computeIfAbsent(name, n -> new ArrayList<>())
                    .add(equals < 0 ? "" : decode(pair.substring(equals + 1)));
        }
        return new FormFields(fields);
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ProblemException(ProblemCode.INVALID_BODY, "The form is not valid URL-encoded text.");
        }
    }

    /** The field's first value, "" when absent. */
    String value(String name) {
        List<String> values = fields.getOrDefault(name, List.of());
        return values.isEmpty() ? "" : values.getFirst();
    }

    /** Every value of the field, as checkboxes of one name send them. */
    List<String> all(String name) {
        return fields.getOrDefault(name, List.of());
    }
}
