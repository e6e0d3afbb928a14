package dev.pulseledger.i18n;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every message bundle is complete in every language: no key of {@code en} missing, no placeholder lost. */
class MessageBundlesTest {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\d}");

    /** Every bundle on the class path, by the names of its English files ({@code status_en.properties} → status). */
    static List<String> bundles() throws IOException, URISyntaxException {
        URL folder = MessageBundlesTest.class.getResource("/i18n");
        assertThat(folder).isNotNull();
        try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
            return files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith("_en.properties"))
                    .map(name -> name.substring(0, name.length() - "_en.properties".length()))
                    .sorted()
                    .toList();
        }
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void everyLanguageHasEveryKeyOfEnglishAndNoOther(String bundle) {
        Set<String> english = Messages.keys(bundle, Language.EN);
        assertThat(english).isNotEmpty();
        for (Language language : Language.values()) {
            Set<String> keys = Messages.keys(bundle, language);
            Set<String> missing = new TreeSet<>(english);
            missing.removeAll(keys);
            Set<String> extra = new TreeSet<>(keys);
            extra.removeAll(english);
            assertThat(missing)
                    .as("%s_%s lacks keys that en has", bundle, language.tag())
                    .isEmpty();
            assertThat(extra)
                    .as("%s_%s has keys that en lacks", bundle, language.tag())
                    .isEmpty();
        }
    }

    @ParameterizedTest
    @MethodSource("bundles")
    void everyTranslationKeepsItsPlaceholdersAndSaysSomething(String bundle) {
        Messages english = Messages.of(bundle, Language.EN);
        for (Language language : Language.values()) {
            Messages words = Messages.of(bundle, language);
            for (String key : Messages.keys(bundle, Language.EN)) {
                String text = words.text(key);
                assertThat(text).as("%s %s", language.tag(), key).isNotBlank();
                assertThat(placeholders(text))
                        .as("placeholders of %s in %s", key, language.tag())
                        .isEqualTo(placeholders(english.text(key)));
            }
        }
    }

    @Test
    void aMissingKeyIsNamedNotShown() {
        Messages words = Messages.of("status", Language.DE);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> words.text("no.such.key"))
                .hasMessageContaining("no.such.key");
    }

    @Test
    void datesAndNumbersFollowTheLanguage() {
        Instant at = Instant.parse("2026-11-21T10:05:00Z");
        assertThat(Messages.of("status", Language.EN).dateTime(at)).isEqualTo("21 Nov 2026, 10:05 UTC");
        assertThat(Messages.of("status", Language.DE).dateTime(at)).isEqualTo("21. Nov. 2026, 10:05 UTC");
        assertThat(Messages.of("status", Language.FR).dateTime(at)).isEqualTo("21 nov. 2026, 10:05 UTC");
        assertThat(Messages.of("status", Language.ES).date(LocalDate.of(2026, 11, 21)))
                .isEqualTo("21 nov 2026");
        assertThat(Messages.of("status", Language.JA).dateTime(at)).isEqualTo("2026年11月21日 10:05 UTC");
        assertThat(Messages.of("status", Language.EN).percent(0.99955)).isEqualTo("99.95 %");
        assertThat(Messages.of("status", Language.DE).percent(0.99955)).isEqualTo("99,95 %");
    }

    private static Set<String> placeholders(String text) {
        Set<String> found = new TreeSet<>();
        Matcher matcher = PLACEHOLDER.matcher(text);
        while (matcher.find()) {
            found.add(matcher.group());
        }
        return found;
    }
}
