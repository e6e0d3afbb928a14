package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.i18n.Language;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The page in the operator's language (CONTRACT §16): {@code <html lang>}, every fixed word from the
 * language's bundle, dates in its format, and the same words in the badges and the Atom feed; the
 * operators' own text stays as written.
 */
class StatusPageLanguageTest {
    @ParameterizedTest
    @EnumSource(Language.class)
    void thePageBadgesAndFeedSpeakTheChosenLanguage(Language language) {
        TestClock clock = new TestClock(Instant.parse("2026-11-21T10:05:00Z"));
        try (TestNode node = TestNode.start(
                TestNode.config(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--public-status-page",
                        "--status-language",
                        language.tag(),
                        "--status-page-name",
                        "Acme"),
                clock)) {
            Messages words = Messages.of("status", language);
            Api admin = node.admin();
            admin.put("/admin/services/api", Map.of("name", "Public API", "status", "partial_outage"));
            admin.post(
                    "/admin/incidents",
                    Map.of(
                            "title",
                            "Slow answers",
                            "impact",
                            "major",
                            "message",
                            "We are on it.",
                            "services",
                            Map.of("api", "partial_outage")));

            String page = node.anonymous().get("/status").text();
            assertThat(page)
                    .contains("<html lang=\"" + language.tag() + "\">")
                    .contains(words.text("nav.current"))
                    .contains(words.text("headline.partial_outage"))
                    .contains(words.text("section.incidents"))
                    .contains(words.text("incident.investigating"))
                    .contains(words.dateTime(Instant.parse("2026-11-21T10:05:00Z")))
                    .contains("Slow answers")
                    .contains("We are on it.");
            if (language != Language.EN) {
                assertThat(page).doesNotContain("Active incidents").doesNotContain("Current status");
            }
            assertThat(node.anonymous().get("/status/history").text())
                    .contains("<html lang=\"" + language.tag() + "\">")
                    .contains(words.text("nav.history"));
            assertThat(node.anonymous().get("/status/badge.svg").text())
                    .contains(words.text("badge.label") + ": " + words.text("service.partial_outage"));
            assertThat(node.anonymous().get("/status/feed.atom").text())
                    .contains("xml:lang=\"" + language.tag() + "\"")
                    .contains(words.text("feed.title", words.text("title.named", "Acme"))
                            .replace("\"", "&#34;"));
            assertThat(node.anonymous().get("/status/embed").text())
                    .contains("<html lang=\"" + language.tag() + "\">")
                    .contains(words.text("embed.open"));
        }
    }
}
