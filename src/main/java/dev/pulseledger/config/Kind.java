package dev.pulseledger.config;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What a setting accepts and how its text becomes a value; {@code accepts} is the phrase used in
 * error messages, in {@code serve --help} and in the README.
 *
 * @param accepts what a valid value looks like, e.g. "a whole number from 1 to 200"
 * @param parser the value, or empty when the text is not acceptable
 * @param switchLike the flag may stand alone, meaning {@code true}
 */
public record Kind<T>(String accepts, Function<String, Optional<T>> parser, boolean switchLike) {

    public static Kind<Integer> wholeNumber(int min, int max) {
        return new Kind<>(
                "a whole number from " + min + " to " + max,
                text -> {
                    try {
                        int number = Integer.parseInt(text);
                        return number >= min && number <= max ? Optional.of(number) : Optional.empty();
                    } catch (NumberFormatException e) {
                        return Optional.empty();
                    }
                },
                false);
    }

    public static Kind<Duration> millis(int min, int max) {
        return wholeNumber(min, max).map(" milliseconds", Duration::ofMillis);
    }

    public static Kind<Duration> seconds(int min, int max) {
        return wholeNumber(min, max).map(" seconds", Duration::ofSeconds);
    }

    public static Kind<Duration> hours(int min, int max) {
        return wholeNumber(min, max).map(" hours", Duration::ofHours);
    }

    /** {@code true} or {@code false}, in any case; anything else is a mistake worth naming. */
    public static Kind<Boolean> bool() {
        return new Kind<>(
                "true or false",
                text -> switch (text.toLowerCase(Locale.ROOT)) {
                    case "true" -> Optional.of(true);
                    case "false" -> Optional.of(false);
                    default -> Optional.empty();
                },
                true);
    }

    public static Kind<String> text(String accepts, Predicate<String> valid) {
        return new Kind<>(accepts, text -> Optional.of(text).filter(valid), false);
    }

    /** Either nothing (an empty text) or a value of {@code kind}. */
    @SuppressWarnings("OptionalMapToOptional") // the value is itself optional: empty when not given
    public static Kind<Optional<String>> optional(Kind<String> kind) {
        return new Kind<>(
                kind.accepts + ", or nothing",
                text -> text.isEmpty()
                        ? Optional.of(Optional.empty())
                        : kind.parser.apply(text).map(Optional::of),
                false);
    }

    private <U> Kind<U> map(String unit, Function<T, U> convert) {
        return new Kind<>(accepts + unit, text -> parser.apply(text).map(convert), switchLike);
    }
}
