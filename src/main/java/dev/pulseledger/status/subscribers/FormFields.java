package dev.pulseledger.status.subscribers;

import dev.pulseledger.http.Requests;
import io.helidon.webserver.http.ServerRequest;
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
        return new FormFields(Requests.formFields(req, MAX_FIELDS));
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
