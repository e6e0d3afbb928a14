package dev.pulseledger.config;

import java.time.Duration;
import java.util.Locale;

/** One raw setting as given by a flag or an environment variable, with its names for messages. */
record Setting(String flag, String env, String value) {

    String text() {
        return value.trim();
    }

    int intBetween(int min, int max) {
        try {
            int number = Integer.parseInt(text());
            if (number >= min && number <= max) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid("a whole number from " + min + " to " + max);
    }

    /** {@code true} or {@code false}, in any case; anything else is a mistake worth naming. */
    boolean bool() {
        return switch (text().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid("true or false");
        };
    }

    Duration millisBetween(long min, long max) {
        return Duration.ofMillis(intBetween((int) min, (int) max));
    }

    ConfigException invalid(String expected) {
        return new ConfigException(
                "Invalid setting " + flag + " / " + env + " = '" + value + "': expected " + expected + ".");
    }
}
