package dev.pulseledger.cli;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** A JSON request body built from options: an option that was not given is left out of the body. */
final class RequestBody {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    /** Adds the field when the value is present (a picocli option left out is null). */
    RequestBody with(String name, @Nullable Object value) {
        if (value != null) {
            fields.put(name, value);
        }
        return this;
    }

    /** Adds the field as JSON null: how a change clears an optional value. */
    RequestBody withNull(String name) {
        fields.put(name, null);
        return this;
    }

    boolean isEmpty() {
        return fields.isEmpty();
    }

    Map<String, Object> fields() {
        return Collections.unmodifiableMap(fields);
    }
}
