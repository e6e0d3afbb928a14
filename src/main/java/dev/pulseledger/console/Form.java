package dev.pulseledger.console;

import dev.pulseledger.http.Requests;
import dev.pulseledger.status.incidents.MaintenanceStore;
import io.helidon.webserver.http.ServerRequest;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A posted HTML form: the values of each field, read within limits, and the errors found in them,
 * each kept under its field's name so that the page shows it next to that field.
 */
final class Form {
    /** Enough for a maintenance window's checkbox per service ({@link MaintenanceStore#MAX_SERVICES}). */
    private static final int MAX_FIELDS = MaintenanceStore.MAX_SERVICES + 50;

    private static final int MAX_TIME_LENGTH = 40;

    private final Map<String, List<String>> fields;
    private final Map<String, String> errors = new LinkedHashMap<>();

    private Form(Map<String, List<String>> fields) {
        this.fields = fields;
    }

    /** A form with no fields, for a page shown before anything was posted. */
    static Form empty() {
        return new Form(Map.of());
    }

    static Form read(ServerRequest req) {
        return new Form(Requests.formFields(req, MAX_FIELDS));
    }

    /** The field's first raw value, "" when absent. */
    String value(String name) {
        List<String> values = fields.getOrDefault(name, List.of());
        return values.isEmpty() ? "" : values.getFirst();
    }

    /** Every value the field was posted with, as checkboxes of one name send them; none when absent. */
    List<String> all(String name) {
        return fields.getOrDefault(name, List.of());
    }

    /** The field's trimmed text; an error when it is required and blank, or longer than {@code maxLength}. */
    Optional<String> text(String name, int maxLength, boolean required) {
        String text = value(name).strip();
        if (text.isEmpty()) {
            if (required) {
                error(name, "Enter a value.");
            }
            return Optional.empty();
        }
        if (text.length() > maxLength || text.chars().anyMatch(Character::isISOControl)) {
            error(name, "Use at most " + maxLength + " characters, without control characters.");
            return Optional.empty();
        }
        return Optional.of(text);
    }

    /** The field as a whole number from {@code min} to {@code max}; blank is empty unless required. */
    Optional<Long> wholeNumber(String name, long min, long max, boolean required) {
        String text = value(name).strip().replace(",", "").replace("_", "");
        if (text.isEmpty()) {
            if (required) {
                error(name, "Enter a whole number.");
            }
            return Optional.empty();
        }
        try {
            long number = Long.parseLong(text);
            if (number >= min && number <= max) {
                return Optional.of(number);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        error(name, "Enter a whole number from " + min + " to " + max + ".");
        return Optional.empty();
    }

    /**
     * The field as a UTC date and time, as a {@code datetime-local} input sends it
     * ({@code 2026-11-23T14:30}, seconds optional) or as RFC 3339 with its offset; blank is empty
     * unless required.
     */
    Optional<Instant> utcTime(String name, boolean required) {
        String text = value(name).strip();
        if (text.isEmpty()) {
            if (required) {
                error(name, "Enter a date and time (UTC).");
            }
            return Optional.empty();
        }
        if (text.length() <= MAX_TIME_LENGTH) {
            try {
                return Optional.of(OffsetDateTime.parse(text).toInstant());
            } catch (DateTimeParseException e) {
                // not with an offset: a local time, read as UTC below
            }
            try {
                return Optional.of(LocalDateTime.parse(text.replace(' ', 'T')).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException e) {
                // reported below
            }
        }
        error(name, "Enter a date and time (UTC) such as 2026-11-23T14:30.");
        return Optional.empty();
    }

    /** Records an error against a field; the first error of a field is the one shown. */
    void error(String name, String message) {
        errors.putIfAbsent(name, message);
    }

    boolean valid() {
        return errors.isEmpty();
    }

    Map<String, String> errors() {
        return Collections.unmodifiableMap(errors);
    }

    /** The first value of each field, as the page puts it back into its inputs. */
    Map<String, String> values() {
        Map<String, String> first = new LinkedHashMap<>();
        fields.keySet().forEach(name -> first.put(name, value(name)));
        return Collections.unmodifiableMap(first);
    }
}
