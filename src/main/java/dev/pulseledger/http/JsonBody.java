package dev.pulseledger.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** Reads fields of a JSON request object, answering 400 with the field's name on any bad value. */
public final class JsonBody {
    public static final Pattern SLUG = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");

    /** RFC 3339 years have four digits; beyond them Instant.parse still succeeds but epoch millis overflow. */
    private static final Instant EARLIEST_INSTANT = Instant.parse("0000-01-01T00:00:00Z");

    private static final Instant LATEST_INSTANT = Instant.parse("9999-12-31T23:59:59.999Z");

    /** The body of a request that sent none: every field absent. */
    public static final JsonBody EMPTY = new JsonBody(Json.mapper().createObjectNode(), "");

    private final JsonNode node;
    /** Where this object sits in the request body ({@code ""} at the top, {@code "sla.tiers[0]."} inside), for errors. */
    private final String path;

    private JsonBody(JsonNode node, String path) {
        this.node = node;
        this.path = path;
    }

    /** Parses the body and rejects fields outside {@code allowed}, so typos do not pass silently. */
    public static JsonBody parse(byte[] body, Set<String> allowed) {
        JsonNode node = StrictJson.parseObject(body);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw ProblemException.invalidField(name, "is not a known field");
            }
        }
        return new JsonBody(node, "");
    }

    public boolean has(String field) {
        return node.has(field);
    }

    /** A nested object with only the {@code allowed} fields; empty when absent or null. */
    public Optional<JsonBody> optionalObject(String field, Set<String> allowed) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isObject()) {
            throw ProblemException.invalidField(path + field, "must be an object");
        }
        for (Iterator<String> names = value.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw ProblemException.invalidField(path + field + "." + name, "is not a known field");
            }
        }
        return Optional.of(new JsonBody(value, path + field + "."));
    }

    /** A required array of 1 to {@code maxItems} objects with only the {@code allowed} fields. */
    public List<JsonBody> requiredObjectList(String field, int maxItems, Set<String> allowed) {
        return objects(field, requiredArray(field, 1, maxItems, "objects"), allowed);
    }

    /** An optional array of 0 to {@code maxItems} objects with only the {@code allowed} fields; empty when absent. */
    public Optional<List<JsonBody>> optionalObjectList(String field, int maxItems, Set<String> allowed) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(objects(field, requiredArray(field, 0, maxItems, "objects"), allowed));
    }

    private List<JsonBody> objects(String field, JsonNode value, Set<String> allowed) {
        List<JsonBody> items = new ArrayList<>(value.size());
        for (int i = 0; i < value.size(); i++) {
            String itemPath = path + field + "[" + i + "]";
            JsonNode item = value.get(i);
            if (!item.isObject()) {
                throw ProblemException.invalidField(itemPath, "must be an object");
            }
            for (Iterator<String> names = item.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!allowed.contains(name)) {
                    throw ProblemException.invalidField(itemPath + "." + name, "is not a known field");
                }
            }
            items.add(new JsonBody(item, itemPath + "."));
        }
        return items;
    }

    /** A required number strictly between 0 and 1, such as an uptime. */
    public double requiredFraction(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw ProblemException.invalidField(path + field, "is required");
        }
        if (!value.isNumber() || !(value.doubleValue() > 0 && value.doubleValue() < 1)) {
            throw ProblemException.invalidField(path + field, "must be a number between 0 and 1, both excluded");
        }
        return value.doubleValue();
    }

    public String requiredString(String field, int maxLength) {
        return optionalString(field, maxLength)
                .orElseThrow(() -> ProblemException.invalidField(path + field, "is required"));
    }

    public Optional<String> optionalString(String field, int maxLength) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw ProblemException.invalidField(path + field, "must be a string");
        }
        String text = value.textValue();
        if (text.length() > maxLength) {
            throw ProblemException.invalidField(path + field, "must be at most " + maxLength + " characters");
        }
        if (text.chars().anyMatch(c -> Character.isISOControl(c) && c != '\n' && c != '\t')) {
            throw ProblemException.invalidField(path + field, "must not contain control characters");
        }
        return Optional.of(text);
    }

    public String requiredNonBlank(String field, int maxLength) {
        String text = requiredString(field, maxLength);
        if (text.isBlank()) {
            throw ProblemException.invalidField(path + field, "must not be blank");
        }
        return text;
    }

    public String requiredSlug(String field) {
        String text = requiredString(field, 63);
        if (!SLUG.matcher(text).matches()) {
            throw ProblemException.invalidField(path + field, "must match [a-z0-9][a-z0-9-]{0,62}");
        }
        return text;
    }

    public Optional<Long> optionalLong(String field, long min, long max) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw ProblemException.invalidField(path + field, "must be a whole number");
        }
        long number = value.longValue();
        if (number < min || number > max) {
            throw ProblemException.invalidField(path + field, "must be between " + min + " and " + max);
        }
        return Optional.of(number);
    }

    public long requiredLong(String field, long min, long max) {
        return optionalLong(field, min, max)
                .orElseThrow(() -> ProblemException.invalidField(path + field, "is required"));
    }

    public Optional<Boolean> optionalBoolean(String field) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isBoolean()) {
            throw ProblemException.invalidField(path + field, "must be true or false");
        }
        return Optional.of(value.booleanValue());
    }

    /** Like {@link #requiredStringList}, but absent or null is empty. */
    public Optional<List<String>> optionalStringList(String field, int maxItems, int maxLength) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(requiredStringList(field, maxItems, maxLength));
    }

    /** A required array of 1 to {@code maxItems} strings of at most {@code maxLength} characters each. */
    public List<String> requiredStringList(String field, int maxItems, int maxLength) {
        JsonNode value = requiredArray(field, 1, maxItems, "strings");
        List<String> items = new ArrayList<>(value.size());
        for (JsonNode item : value) {
            if (!item.isTextual() || item.textValue().length() > maxLength) {
                throw ProblemException.invalidField(
                        path + field, "must hold strings of at most " + maxLength + " characters");
            }
            items.add(item.textValue());
        }
        return items;
    }

    /**
     * An optional object of at most {@code maxEntries} objects, each with only the {@code allowed} fields,
     * by name; empty when absent or null.
     */
    public Optional<Map<String, JsonBody>> optionalObjectMap(String field, int maxEntries, Set<String> allowed) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isObject() || value.size() > maxEntries) {
            throw ProblemException.invalidField(
                    path + field, "must be an object of at most " + maxEntries + " entries");
        }
        Map<String, JsonBody> entries = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            entries.put(
                    entry.getKey(),
                    new JsonBody(value, path)
                            .optionalObject(entry.getKey(), allowed)
                            .orElseThrow(() -> ProblemException.invalidField(
                                    path + field + "." + entry.getKey(), "must be an object")));
        }
        return Optional.of(entries);
    }

    private JsonNode requiredArray(String field, int minItems, int maxItems, String items) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            throw ProblemException.invalidField(path + field, "is required");
        }
        if (!value.isArray() || value.size() < minItems || value.size() > maxItems) {
            throw ProblemException.invalidField(
                    path + field, "must be an array of " + minItems + " to " + maxItems + " " + items);
        }
        return value;
    }

    /** An optional object of at most {@code maxEntries} string values, each at most {@code maxLength} long. */
    public Optional<Map<String, String>> optionalStringMap(String field, int maxEntries, int maxLength) {
        JsonNode value = node.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isObject() || value.size() > maxEntries) {
            throw ProblemException.invalidField(
                    path + field, "must be an object of at most " + maxEntries + " entries");
        }
        Map<String, String> entries = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : value.properties()) {
            if (!entry.getValue().isTextual() || entry.getValue().textValue().length() > maxLength) {
                throw ProblemException.invalidField(
                        path + field, "must hold strings of at most " + maxLength + " characters");
            }
            entries.put(entry.getKey(), entry.getValue().textValue());
        }
        return Optional.of(entries);
    }

    public Instant requiredInstant(String field) {
        return optionalInstant(field).orElseThrow(() -> ProblemException.invalidField(path + field, "is required"));
    }

    public Optional<Instant> optionalInstant(String field) {
        return optionalString(field, 64).map(text -> {
            try {
                Instant instant = Instant.parse(text);
                if (!instant.isBefore(EARLIEST_INSTANT) && !instant.isAfter(LATEST_INSTANT)) {
                    return instant;
                }
            } catch (DateTimeParseException e) {
                // answered below
            }
            throw ProblemException.invalidField(path + field, "must be an RFC 3339 timestamp");
        });
    }
}
