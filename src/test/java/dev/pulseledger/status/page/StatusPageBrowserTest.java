package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.status.pulse.PulseFeed;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/** The public status page in real headless Chromium with JavaScript off: it works on a plain reload link. */
class StatusPageBrowserTest {
    private static final String HOSTILE_NAME = "Billing <script>alert(1)</script>";
    private static final String HOSTILE_DESCRIPTION = "Invoices & \"receipts\" <b>bold</b> 'quoted'";

    private static TestNode node;
    private static Browser browser;

    @BeforeAll
    static void start() {
        browser = Browser.start(false);
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page");
        Api admin = node.admin();
        putService(admin, "billing", Map.of("name", HOSTILE_NAME, "description", HOSTILE_DESCRIPTION, "position", 0));
        putService(admin, "api", Map.of("name", "Public API", "spotlighted", true, "position", 2));
        putService(admin, "dashboard", Map.of("name", "Dashboard", "spotlighted", true, "position", 1));
        putService(admin, "internal", Map.of("name", "Internal queue", "spotlighted", true, "public", false));
        putService(admin, "search", Map.of("name", "Search", "position", 1));
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void spotlightedServicesComeFirstAndAStatusChangeShowsAfterARefresh() {
        WebDriver page = browser.driver();
        page.get(node.baseUrl() + "/status");

        assertThat(serviceIds(page)).containsExactly("dashboard", "api", "billing", "search");
        assertThat(page.findElement(By.id("spotlighted-heading")).getText()).isEqualTo("Spotlighted services");
        assertThat(headline(page)).isEqualTo("All systems operational");
        assertThat(badge(page, "api")).isEqualTo("Status: Operational");

        Api admin = node.admin();
        assertThat(admin.patch("/admin/services/api", Map.of("status", "major_outage"))
                        .status())
                .isEqualTo(200);
        assertThat(admin.patch("/admin/services/search", Map.of("status", "under_maintenance"))
                        .status())
                .isEqualTo(200);

        refreshUntil(page, () -> badge(page, "api").equals("Status: Major outage"));
        assertThat(headline(page)).isEqualTo("Major outage");
        assertThat(page.findElement(By.cssSelector(".summary")).getText())
                .contains("2 of 4 services are not fully operational.");
        assertThat(badge(page, "search")).isEqualTo("Status: Under maintenance");
        assertThat(serviceIds(page)).containsExactly("dashboard", "api", "billing", "search");
        assertThat(page.findElement(By.linkText("Reload this page")).getAttribute("href"))
                .isEqualTo(node.baseUrl() + "/status");
        browser.screenshot("status-page.png");
        browser.assertNoSecurityPolicyViolations();
    }

    @Test
    void operatorTextIsShownAsTextNeverAsMarkup() {
        WebDriver page = browser.driver();
        page.get(node.baseUrl() + "/status");

        WebElement billing = service(page, "billing");
        assertThat(billing.findElement(By.tagName("h3")).getText()).isEqualTo(HOSTILE_NAME);
        assertThat(billing.findElement(By.className("description")).getText()).isEqualTo(HOSTILE_DESCRIPTION);
        assertThat(page.findElements(By.cssSelector("body script, .description b")))
                .isEmpty();
    }

    @Test
    void everyStatusIsWrittenInWordsWithReadableContrast() {
        try (TestNode tones = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--public-status-page")) {
            Map<String, String> words = Map.of(
                    "operational", "Operational",
                    "degraded_performance", "Degraded performance",
                    "partial_outage", "Partial outage",
                    "major_outage", "Major outage",
                    "under_maintenance", "Under maintenance",
                    "unknown", "Status unknown");
            words.keySet()
                    .forEach(status -> putService(
                            tones.admin(), status.replace('_', '-'), Map.of("name", "A service", "status", status)));
            WebDriver page = browser.driver();
            page.get(tones.baseUrl() + "/status");

            List<WebElement> services = page.findElements(By.cssSelector("li.service"));
            assertThat(services).hasSize(words.size());
            for (WebElement service : services) {
                WebElement badge = service.findElement(By.className("badge"));
                assertThat(spoken(badge)).isEqualTo("Status: " + words.get(service.getAttribute("data-status")));
                assertThat(Contrast.ratio(badge.getCssValue("color"), badge.getCssValue("background-color")))
                        .as("contrast of the badge '%s'", badge.getText())
                        .isGreaterThanOrEqualTo(4.5);
            }
            WebElement summary = page.findElement(By.cssSelector(".summary"));
            assertThat(summary.getText()).startsWith("Major outage");
            assertThat(Contrast.ratio(summary.getCssValue("color"), summary.getCssValue("background-color")))
                    .isGreaterThanOrEqualTo(4.5);
            assertThat(page.findElements(By.cssSelector("body > header, body > main, body > footer")))
                    .hasSize(3);
            assertThat(page.findElement(By.tagName("html")).getAttribute("lang"))
                    .isEqualTo("en");
        }
    }

    @Test
    void onAPhoneThePageFitsTheScreenWidth() {
        WebDriver page = browser.driver();
        try {
            browser.resize(390, 844);
            page.get(node.baseUrl() + "/status");
            WebElement body = page.findElement(By.tagName("body"));
            assertThat(body.getSize().getWidth()).isLessThanOrEqualTo(390);
            for (WebElement service : page.findElements(By.cssSelector(".service"))) {
                assertThat(service.getRect().getX() + service.getRect().getWidth())
                        .as("right edge of %s", service.getAttribute("data-service"))
                        .isLessThanOrEqualTo(390);
            }
            browser.screenshot("status-page-phone.png");
        } finally {
            browser.resize(1280, 900);
        }
    }

    private static void putService(Api admin, String id, Map<String, Object> body) {
        int status = admin.put("/admin/services/" + id, body).status();
        assertThat(status).as("PUT /admin/services/%s", id).isIn(200, 201);
    }

    private static List<String> serviceIds(WebDriver page) {
        return page.findElements(By.cssSelector("li.service")).stream()
                .map(li -> li.getAttribute("data-service"))
                .toList();
    }

    private static WebElement service(WebDriver page, String id) {
        return page.findElement(By.cssSelector("li.service[data-service='" + id + "']"));
    }

    /** The badge's words as a screen reader reads them, e.g. "Status: Operational". */
    private static String badge(WebDriver page, String id) {
        return spoken(service(page, id).findElement(By.className("badge")));
    }

    private static String spoken(WebElement element) {
        return element.getText().replaceAll("\\s+", " ");
    }

    private static String headline(WebDriver page) {
        return page.findElement(By.id("summary-heading")).getText();
    }

    /**
     * Reloads until {@code shown} holds, for at most the page's cache bound (its max-age plus the
     * feed's own staleness) and a margin for a slow machine.
     */
    private static void refreshUntil(WebDriver page, java.util.function.BooleanSupplier shown) {
        Instant deadline = Instant.now()
                .plus(Duration.ofSeconds(5).plus(PulseFeed.MAX_STALENESS).plusSeconds(10));
        page.navigate().refresh();
        while (!shown.getAsBoolean()) {
            assertThat(Instant.now())
                    .as("the change showed within the cache bound")
                    .isBefore(deadline);
            page.navigate().refresh();
        }
    }
}
