package dev.pulseledger.config;

import java.util.Locale;

/**
 * One setting of {@code serve}, declared once in {@link Settings}: its flag and environment variable
 * follow from its name, and its kind says what it accepts.
 *
 * @param name e.g. {@code db-pool-size}: flag {@code --db-pool-size}, variable {@code
 *     PULSELEDGER_DB_POOL_SIZE}
 * @param kind what it accepts and how its text becomes a value
 * @param defaultValue the text used when neither the flag nor the variable is given
 * @param help one sentence for {@code serve --help} and the README
 * @param secret its value is never shown, not even in an error message
 */
public record Setting<T>(String name, Kind<T> kind, String defaultValue, String help, boolean secret) {

    public String flag() {
        return "--" + name;
    }

    public String env() {
        return "PULSELEDGER_" + name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    /** The value of {@code text} (a secret as given, anything else trimmed), or a message naming this setting. */
    T parse(String text) {
        String value = secret ? text : text.strip();
        return kind.parser().apply(value).orElseThrow(() -> invalid(value, kind.accepts()));
    }

    ConfigException invalid(String value, String expected) {
        return new ConfigException("Invalid setting " + flag() + " / " + env() + " = '" + (secret ? "(hidden)" : value)
                + "': expected " + expected + ".");
    }
}
