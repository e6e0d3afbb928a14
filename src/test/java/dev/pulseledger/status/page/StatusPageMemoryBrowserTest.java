package dev.pulseledger.status.page;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Axe;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * The status page with a memory, in real headless Chromium with JavaScript on: an active incident
 * with its timeline, upcoming maintenance and 90 uptime bars per service, in the light and the dark
 * theme, on a desktop and at 390 px, checked by axe-core. Screenshots go to {@code target/}.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hung browser, not a speed check
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StatusPageMemoryBrowserTest {
    private static final Instant NOW = Instant.parse("2026-11-23T12:00:00Z");
    private static final List<String> THEMES = List.of("light", "dark");

    private static TestNode node;
    private static Browser browser;
    private static String activeIncident;

    @BeforeAll
    static void start() {
        browser = Browser.start(true);
        TestClock clock = new TestClock(Instant.parse("2026-09-01T00:00:00Z"));
        node = TestNode.start(
                TestNode.config(
                        TestStore.SQLITE.newDatabaseUrl(),
                        "--public-status-page",
                        "--status-page-name",
                        "Acme",
                        "--status-page-url",
                        "https://acme.example/"),
                clock);
        Api admin = node.admin();
        put(admin, "api", Map.of("name", "Public API", "spotlighted", true, "position", 1));
        put(admin, "dashboard", Map.of("name", "Dashboard", "spotlighted", true, "position", 2));
        put(admin, "search", Map.of("name", "Search", "description", "Full-text search over your data."));
        put(admin, "internal", Map.of("name", "Internal queue", "public", false));

        clock.set(Instant.parse("2026-10-05T10:00:00Z"));
        String outage = open(admin, "Database failover", "critical", Map.of("api", "major_outage"));
        clock.set(Instant.parse("2026-10-05T13:00:00Z"));
        update(admin, outage, "resolved", "The new primary is serving.", Map.of("api", "operational"));
        clock.set(Instant.parse("2026-11-10T08:00:00Z"));
        admin.patch("/admin/services/search", Map.of("status", "partial_outage"));
        clock.set(Instant.parse("2026-11-10T20:00:00Z"));
        admin.patch("/admin/services/search", Map.of("status", "operational"));

        clock.set(NOW.minus(Duration.ofHours(1)));
        activeIncident = open(admin, "Elevated API errors", "major", Map.of("api", "partial_outage"));
        clock.set(NOW);
        update(admin, activeIncident, "monitoring", "A fix is out; we are watching error rates.", Map.of());
        Reply maintenance = admin.post(
                "/admin/maintenances",
                Map.of(
                        "title", "Search index rebuild",
                        "message", "Search results may be incomplete for an hour.",
                        "services", List.of("search", "dashboard"),
                        "startsAt", "2026-11-25T02:00:00Z",
                        "endsAt", "2026-11-25T03:00:00Z"));
        assertThat(maintenance.status()).as(maintenance.toString()).isEqualTo(201);
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
    void theIncidentMaintenanceAndUptimeBarsShowInBothThemesWithNoAccessibilityViolation() {
        WebDriver page = browser.driver();
        for (String theme : THEMES) {
            browser.colorScheme(theme);
            page.get(node.baseUrl() + "/status");

            WebElement provider = page.findElement(By.cssSelector(".provider a"));
            assertThat(provider.getText()).isEqualTo("Acme status");
            assertThat(provider.getAttribute("href")).isEqualTo("https://acme.example/");
            WebElement incident = page.findElement(By.cssSelector("article[data-incident='" + activeIncident + "']"));
            assertThat(incident.findElement(By.tagName("h3")).getText()).isEqualTo("Elevated API errors");
            assertThat(incident.findElements(By.cssSelector(".timeline li")))
                    .extracting(li -> li.findElement(By.tagName("strong")).getText())
                    .containsExactly("Monitoring", "Investigating");
            assertThat(incident.findElement(By.className("affects")).getText()).isEqualTo("Affects: Public API");
            WebElement maintenance = page.findElement(By.cssSelector("article[data-maintenance]"));
            assertThat(maintenance.getText())
                    .contains("Search index rebuild", "Scheduled", "25 Nov 2026, 02:00 UTC", "Dashboard, Search");
            assertThat(page.findElements(By.cssSelector("li.service")))
                    .extracting(li -> li.getAttribute("data-service"))
                    .containsExactly("api", "dashboard", "search");
            for (WebElement service : page.findElements(By.cssSelector("li.service"))) {
                assertThat(service.findElements(By.cssSelector(".bars span"))).hasSize(90);
            }
            WebElement apiBars = page.findElement(By.cssSelector("li[data-service='api'] .bars"));
            assertThat(apiBars.getAttribute("role")).isEqualTo("img");
            WebElement outageDay = apiBars.findElement(By.cssSelector("span[title^='5 Oct 2026']"));
            assertThat(outageDay.getAttribute("class")).isEqualTo("mo");
            assertThat(outageDay.getAttribute("title")).isEqualTo("5 Oct 2026: 87.50 % uptime");
            assertThat(apiBars.findElements(By.cssSelector("span")).getFirst().getAttribute("class"))
                    .as("26 Aug, a day before the service existed")
                    .isEqualTo("nd");
            assertThat(apiBars.getAttribute("aria-label"))
                    .startsWith("Uptime over the last 90 days: 99.")
                    .contains("5 Oct 2026, major outage, 87.50 %");
            assertThat(page.findElement(By.cssSelector("li[data-service='search'] .uptime-percent"))
                            .getText())
                    // Created on 1 Sep: 2004 hours observed, 12 of them a partial outage (3.6 hours down).
                    .isEqualTo("99.82 % uptime");
            assertThat(page.findElements(By.cssSelector("meta[http-equiv='refresh' i]")))
                    .isEmpty();
            assertThat(page.findElement(By.id("refresh-note")).getText()).contains("updates itself");
            assertTheme(page, theme);

            Axe.assertNoViolations(browser, "/status, " + theme + " theme");
            browser.screenshot("status-" + theme + ".png");
        }
        browser.assertNoSecurityPolicyViolations();
    }

    @Test
    void onA390PixelPhoneThePageFitsAndShowsTheLast30DaysInBothThemes() {
        WebDriver page = browser.driver();
        try {
            browser.resize(390, 844);
            for (String theme : THEMES) {
                browser.colorScheme(theme);
                page.get(node.baseUrl() + "/status");
                Number scrollWidth = (Number) browser.script("return document.documentElement.scrollWidth;");
                assertThat(scrollWidth.intValue())
                        .as("page width, %s theme", theme)
                        .isLessThanOrEqualTo(390);
                for (WebElement box : page.findElements(By.cssSelector(".service, .incident, .summary"))) {
                    assertThat(box.getRect().getX() + box.getRect().getWidth()).isLessThanOrEqualTo(390);
                }
                WebElement bars = page.findElement(By.cssSelector("li[data-service='api'] .bars"));
                assertThat(bars.findElements(By.cssSelector("span")).stream()
                                .filter(WebElement::isDisplayed)
                                .count())
                        .isEqualTo(30);
                Axe.assertNoViolations(browser, "/status at 390 px, " + theme + " theme");
                browser.screenshot("status-" + theme + "-phone.png");
            }
        } finally {
            browser.resize(1280, 900);
        }
    }

    @Test
    void theIncidentHistoryListsEveryPublicIncidentWithItsTimeline() {
        WebDriver page = browser.driver();
        for (String theme : THEMES) {
            browser.colorScheme(theme);
            page.get(node.baseUrl() + "/status/history");

            assertThat(page.findElement(By.tagName("h1")).getText()).isEqualTo("Incident history");
            assertThat(page.findElements(By.cssSelector("article.incident h2")))
                    .extracting(WebElement::getText)
                    .containsExactly("Elevated API errors", "Database failover");
            assertThat(page.findElement(By.cssSelector("nav a[aria-current='page']"))
                            .getText())
                    .isEqualTo("Incident history");
            Axe.assertNoViolations(browser, "/status/history, " + theme + " theme");
            browser.screenshot("status-history-" + theme + ".png");
        }
    }

    /** Last, since the status change it makes would show in the other tests' screenshots. */
    @Test
    @Order(Integer.MAX_VALUE)
    void theScriptShowsAChangeWithoutReloadingThePage() {
        WebDriver page = browser.driver();
        browser.colorScheme("light");
        page.get(node.baseUrl() + "/status");
        browser.script("window.sameDocument = 'yes';");
        assertThat(node.admin()
                        .patch("/admin/services/dashboard", Map.of("status", "degraded_performance"))
                        .status())
                .isEqualTo(200);
        try {
            Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
            while (!badge("dashboard").contains("Degraded performance")) {
                assertThat(Instant.now()).as("the change showed in place").isBefore(deadline);
                browser.script("document.dispatchEvent(new Event('visibilitychange'));");
                browser.await(By.cssSelector("li[data-service='dashboard']"), Duration.ofSeconds(5));
            }
            assertThat(browser.script("return window.sameDocument;")).isEqualTo("yes");
            browser.assertNoSecurityPolicyViolations();
        } finally {
            node.admin().patch("/admin/services/dashboard", Map.of("status", "operational"));
        }
    }

    private static void assertTheme(WebDriver page, String theme) {
        String background = page.findElement(By.tagName("body")).getCssValue("background-color");
        double againstBlack = Contrast.ratio(background, "rgb(0, 0, 0)");
        if (theme.equals("dark")) {
            assertThat(againstBlack)
                    .as("a dark page background, got %s", background)
                    .isLessThan(2);
        } else {
            assertThat(againstBlack)
                    .as("a light page background, got %s", background)
                    .isGreaterThan(15);
        }
    }

    /** Read in one script, since the page may swap its content between a find and a read. */
    private static String badge(String serviceId) {
        return (String) browser.script(
                "return document.querySelector(\"li[data-service='\" + arguments[0] + \"'] .badge\").textContent;",
                serviceId);
    }

    private static void put(Api admin, String id, Map<String, Object> body) {
        assertThat(admin.put("/admin/services/" + id, body).status()).isIn(200, 201);
    }

    private static String open(Api admin, String title, String impact, Map<String, String> services) {
        Reply reply = admin.post(
                "/admin/incidents",
                Map.of("title", title, "impact", impact, "message", "We are looking into it.", "services", services));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    private static void update(Api admin, String id, String status, String message, Map<String, String> services) {
        Reply reply = admin.post(
                "/admin/incidents/" + id + "/updates",
                Map.of("status", status, "message", message, "services", services));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }
}
