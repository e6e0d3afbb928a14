package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.i18n.Language;
import dev.pulseledger.i18n.Messages;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Axe;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * The status page in every shipped language in real Chromium: axe-core finds no violation (the
 * page's language is declared, groups' summaries are named), the refresh script's note is in the
 * page's language, and the embed page is clean too.
 */
class StatusPageLanguagesBrowserTest {
    @ParameterizedTest
    @EnumSource(Language.class)
    void thePageInEachLanguageHasNoAccessibilityViolation(Language language) {
        try (Browser browser = Browser.start(true);
                TestNode node = TestNode.start(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--public-status-page",
                        "--status-language",
                        language.tag())) {
            Api admin = node.admin();
            admin.post("/admin/service-groups", Map.of("id", "core", "name", "Core"));
            admin.put("/admin/services/api", Map.of("name", "Public API", "groupId", "core"));
            admin.put("/admin/services/db", Map.of("name", "Database", "groupId", "core", "status", "major_outage"));
            admin.put("/admin/services/docs", Map.of("name", "Docs", "spotlighted", true));
            admin.post(
                    "/admin/incidents",
                    Map.of(
                            "title",
                            "Database down",
                            "impact",
                            "critical",
                            "message",
                            "Restoring.",
                            "services",
                            Map.of("db", "major_outage")));
            Messages words = Messages.of("status", language);
            WebDriver page = browser.driver();

            page.get(node.baseUrl() + "/status");
            assertThat(page.findElement(By.tagName("html")).getAttribute("lang"))
                    .isEqualTo(language.tag());
            assertThat(page.findElement(By.id("refresh-note")).getText()).isEqualTo(words.text("footer.live"));
            assertThat(page.findElement(By.cssSelector("details[data-group='core']"))
                            .getAttribute("open"))
                    .isNotNull();
            Axe.assertNoViolations(browser, "/status in " + language.tag());
            page.get(node.baseUrl() + "/status/history");
            Axe.assertNoViolations(browser, "/status/history in " + language.tag());
            page.get(node.baseUrl() + "/status/embed");
            Axe.assertNoViolations(browser, "/status/embed in " + language.tag());
            browser.assertNoSecurityPolicyViolations();
        }
    }
}
