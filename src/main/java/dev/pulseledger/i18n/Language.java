package dev.pulseledger.i18n;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/** A language the status page, its feeds, badges and mails are written in, by its BCP 47 tag. */
public enum Language {
    EN(Locale.ENGLISH),
    DE(Locale.GERMAN),
    FR(Locale.FRENCH),
    ES(Locale.forLanguageTag("es")),
    JA(Locale.JAPANESE);

    /** Every tag, for messages that list them: "en, de, fr, es, ja". */
    public static final String TAGS = Arrays.stream(values()).map(Language::tag).collect(Collectors.joining(", "));

    private final Locale locale;

    Language(Locale locale) {
        this.locale = locale;
    }

    /** The tag, as {@code <html lang>} and {@code xml:lang} write it. */
    public String tag() {
        return locale.getLanguage();
    }

    public Locale locale() {
        return locale;
    }

    public static Optional<Language> fromTag(String tag) {
        return Arrays.stream(values()).filter(l -> l.tag().equals(tag)).findFirst();
    }
}
