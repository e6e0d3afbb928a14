package dev.pulseledger.i18n;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One bundle of fixed words in one language, read from {@code /i18n/<bundle>_<tag>.properties}
 * (UTF-8), with the language's dates and numbers. Placeholders are {@code {0}}, {@code {1}}, … and
 * nothing else is special, so apostrophes need no escaping. Loaded once per bundle and language;
 * a bundle lacking a key that {@code en} has fails {@code MessageBundlesTest}, not a visitor.
 */
public final class Messages {
    private static final Map<String, Messages> LOADED = new ConcurrentHashMap<>();

    private final Language language;
    private final Map<String, String> texts;
    private final DateTimeFormatter dateTime;
    private final DateTimeFormatter date;

    private Messages(Language language, Map<String, String> texts) {
        this.language = language;
        this.texts = Map.copyOf(texts);
        this.dateTime = DateTimeFormatter.ofPattern(text("date.time"), language.locale())
                .withZone(ZoneOffset.UTC);
        this.date =
                DateTimeFormatter.ofPattern(text("date.day"), language.locale()).withZone(ZoneOffset.UTC);
    }

    /** The bundle in the language; fails at once when it is not on the class path. */
    public static Messages of(String bundle, Language language) {
        return LOADED.computeIfAbsent(bundle + "_" + language.tag(), name -> new Messages(language, read(name)));
    }

    /** The keys of one bundle in one language, for the test that keeps languages complete. */
    public static Set<String> keys(String bundle, Language language) {
        return read(bundle + "_" + language.tag()).keySet();
    }

    public Language language() {
        return language;
    }

    /** The text of {@code key} with {@code {0}}, {@code {1}}, … replaced by the arguments in order. */
    public String text(String key, Object... args) {
        String text = texts.get(key);
        if (text == null) {
            throw new IllegalArgumentException("No message " + key + " in " + language.tag());
        }
        for (int i = 0; i < args.length; i++) {
            text = text.replace("{" + i + "}", String.valueOf(args[i]));
        }
        return text;
    }

    /** An instant as people of this language read it, in UTC ("21 Nov 2026, 10:00 UTC"). */
    public String dateTime(Instant at) {
        return dateTime.format(at);
    }

    public String date(LocalDate day) {
        return date.format(day.atStartOfDay(ZoneOffset.UTC));
    }

    /** A share from 0 to 1 as a percentage with two decimals, floored, in the language's digits. */
    public String percent(double share) {
        return String.format(language.locale(), "%.2f %%", Math.floor(share * 10_000) / 100);
    }

    private static Map<String, String> read(String name) {
        String path = "/i18n/" + name + ".properties";
        try (InputStream in = Messages.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("Missing message bundle " + path);
            }
            Properties properties = new Properties();
            try (Reader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                properties.load(reader);
            }
            Map<String, String> texts = new TreeMap<>();
            properties.stringPropertyNames().forEach(key -> texts.put(key, properties.getProperty(key)));
            return texts;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
