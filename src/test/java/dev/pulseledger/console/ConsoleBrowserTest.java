package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Axe;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import dev.pulseledger.support.WebhookReceiver;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * An operator's day in the console, in real headless Chromium with JavaScript on: every effect is
 * checked through the API, every page through axe-core, and every page is kept as a screenshot in
 * {@code target/console-*.png}.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** The notice {@link #notice} read last, so that the next call waits for another page's. */
    private WebElement lastNotice;

    private static final DateTimeFormatter DATE_TIME_KEYS =
            DateTimeFormatter.ofPattern("MMddyyyy'\t'hhmma", Locale.ENGLISH);

    private static TestNode node;
    private static Browser browser;
    private static WebhookReceiver receiver;
    private static String webhookId;

    @BeforeAll
    static void start() {
        browser = Browser.start(true);
        receiver = WebhookReceiver.start().answering(500);
        node = TestNode.start(
                TestStore.SQLITE.newDatabaseUrl(), "--events-poll-ms", "50", "--webhook-retry-base-ms", "20");
        Api admin = node.admin();
        Reply webhook = admin.post(
                "/admin/webhooks",
                Map.of("url", receiver.url(), "events", List.of("service.status_changed"), "description", "Pager"));
        assertThat(webhook.status()).isEqualTo(201);
        webhookId = webhook.json().get("id").asText();
        assertThat(admin.put(
                                "/admin/services/api",
                                Map.of("name", "Public API", "status", "operational", "spotlighted", true))
                        .status())
                .isEqualTo(201);
        assertThat(admin.put("/admin/services/dashboard", Map.of("name", "Dashboard", "status", "degraded_performance"))
                        .status())
                .isEqualTo(201);
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (browser != null) {
            browser.close();
        }
        if (receiver != null) {
            receiver.close();
        }
    }

    @Test
    @Order(1)
    void anOperatorsDay() {
        WebDriver page = browser.driver();
        Api admin = node.admin();

        page.get(node.baseUrl() + "/console");
        assertThat(page.getCurrentUrl()).endsWith("/console/sign-in");
        check("sign-in");
        signIn(page);
        assertThat(page.findElement(By.tagName("h1")).getText()).isEqualTo("Dashboard");
        check("dashboard-empty");

        // Create an account.
        page.findElement(By.linkText("Accounts")).click();
        check("accounts-empty");
        page.findElement(By.id("name")).sendKeys("Acme Robotics");
        page.findElement(By.id("name")).submit();
        String accountId =
                page.getCurrentUrl().replaceFirst(".*/console/accounts/", "").replaceFirst("\\?.*", "");
        Reply account = admin.get("/admin/accounts/" + accountId);
        assertThat(account.status()).isEqualTo(200);
        assertThat(account.json().get("name").asText()).isEqualTo("Acme Robotics");
        assertThat(notice(page)).isEqualTo("Account created.");

        // Grant credits.
        page.findElement(By.id("amount")).sendKeys("1000");
        page.findElement(By.id("reason")).sendKeys("welcome credit");
        page.findElement(By.id("amount")).submit();
        assertThat(notice(page)).isEqualTo("Credits granted.");
        assertThat(balance(accountId)).isEqualTo(1000);

        // Issue a key: shown once.
        page.findElement(By.id("keyName")).sendKeys("production");
        page.findElement(By.id("keyName")).submit();
        // The page the submit leads to may not have arrived yet on a busy machine: wait for its secret field.
        String key = browser.await(By.id("secret"), WAIT).getAttribute("value");
        assertThat(key).startsWith("pl_");
        check("key-issued");
        page.findElement(By.linkText("Back to the account")).click();
        assertThat(page.getPageSource()).doesNotContain(key);

        // Spend with it over the API.
        Api caller = node.caller(key);
        assertThat(caller.post("/api/tokens/spend/100").status()).isEqualTo(201);
        assertThat(caller.post("/api/tokens/spend/5000").status()).isEqualTo(402);

        // The spend on the dashboard (counts reach the database within five seconds) and in the ledger.
        page.findElement(By.linkText("Dashboard")).click();
        refreshUntil(
                page,
                () -> page.findElement(By.cssSelector("#chart-refused .total"))
                        .getText()
                        .startsWith("1 refusals"));
        refreshUntil(
                page,
                () -> !page.findElements(By.cssSelector("#top-accounts tr[data-account='" + accountId + "']"))
                        .isEmpty());
        WebElement top = page.findElement(By.cssSelector("#top-accounts tr[data-account='" + accountId + "']"));
        assertThat(top.getText()).contains("Acme Robotics", "100");
        assertThat(page.findElement(By.cssSelector("#chart-spent .total")).getText())
                .startsWith("100 tokens");
        assertThat(page.findElement(By.cssSelector("#chart-refused .total")).getText())
                .startsWith("1 refusals");
        check("dashboard");

        page.findElement(By.linkText("Acme Robotics")).click();
        WebElement spend = page.findElement(By.cssSelector("#ledger tr[data-kind='spend']"));
        assertThat(spend.getText()).contains("-100", "900");
        assertThat(page.findElement(By.id("balance")).getText()).startsWith("900");
        assertThat(page.findElement(By.id("credits")).getText()).isEqualTo("900");
        assertThat(page.findElement(By.id("allowance")).getText())
                .isEqualTo(
                        caller.get("/api/tokens/balance")
                                        .json()
                                        .path("allowance")
                                        .isNull()
                                ? "none"
                                : "0 of 0");
        // A reservation the caller holds shows in the account's reservations, and its tokens as held.
        Reply reservation = caller.post("/api/tokens/reservations", Map.of("amount", 50));
        assertThat(reservation.status()).isEqualTo(201);
        page.navigate().refresh();
        WebElement reserved = page.findElement(By.cssSelector("#reservations tr[data-reservation='"
                + reservation.json().get("reservationId").asText() + "']"));
        assertThat(reserved.getText()).contains("50", "held");
        assertThat(page.findElement(By.id("held")).getText()).isEqualTo("50");
        check("account");

        // Revoke the key: the API refuses it.
        page.findElement(By.cssSelector("#keys button.danger")).click();
        assertThat(notice(page)).startsWith("Key revoked");
        Waiting.until(
                "the revoked key is refused",
                () -> caller.get("/api/tokens/balance").status() == 401);

        // Change a service's status.
        page.findElement(By.linkText("Services")).click();
        check("services");
        WebElement api = page.findElement(By.cssSelector("li[data-service='api']"));
        api.findElement(By.cssSelector("option[value='major_outage']")).click();
        api.findElement(By.tagName("button")).click();
        assertThat(notice(page)).isEqualTo("Status changed.");
        assertThat(admin.get("/admin/services/api").json().get("status").asText())
                .isEqualTo("major_outage");

        // Post an incident that takes the dashboard service down, then resolve it with an update.
        page.findElement(By.linkText("Incidents")).click();
        page.findElement(By.id("title")).sendKeys("Dashboard unreachable");
        page.findElement(By.id("message")).sendKeys("We are looking into it.");
        page.findElement(By.cssSelector("#serviceId option[value='dashboard']")).click();
        page.findElement(By.id("title")).submit();
        assertThat(notice(page)).isEqualTo("Incident posted.");
        JsonNode incident = admin.get("/admin/incidents").json().get("data").get(0);
        assertThat(incident.get("title").asText()).isEqualTo("Dashboard unreachable");
        assertThat(admin.get("/admin/services/dashboard").json().get("status").asText())
                .isEqualTo("major_outage");
        WebElement posted = page.findElement(
                By.cssSelector("li[data-incident='" + incident.get("id").asText() + "']"));
        posted.findElement(By.tagName("summary")).click();
        posted.findElement(By.cssSelector("option[value='resolved']")).click();
        posted.findElement(By.cssSelector("input[name='message']")).sendKeys("Fixed.");
        posted.findElement(By.cssSelector("input[name='message']")).submit();
        assertThat(notice(page)).isEqualTo("Update posted.");
        assertThat(admin.get("/admin/incidents/" + incident.get("id").asText())
                        .json()
                        .get("status")
                        .asText())
                .isEqualTo("resolved");
        check("incidents");

        // Schedule maintenance of the API for tomorrow, move its end, then cancel it.
        page.findElement(By.linkText("Maintenance")).click();
        page.findElement(By.id("title")).sendKeys("Database upgrade");
        page.findElement(By.id("message")).sendKeys("Writes pause for a minute.");
        page.findElement(By.cssSelector("input[name='services'][value='api']")).click();
        Instant tomorrow = Instant.now().plus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MINUTES);
        dateTime(page.findElement(By.id("startsAt")), tomorrow);
        dateTime(page.findElement(By.id("endsAt")), tomorrow.plus(Duration.ofHours(1)));
        page.findElement(By.id("title")).submit();
        assertThat(notice(page)).isEqualTo("Maintenance scheduled.");
        JsonNode window = admin.get("/admin/maintenances").json().get("data").get(0);
        assertThat(window.get("title").asText()).isEqualTo("Database upgrade");
        assertThat(window.get("services").toString()).isEqualTo("[\"api\"]");
        assertThat(Instant.parse(window.get("startsAt").asText())).isEqualTo(tomorrow);
        String windowId = window.get("id").asText();
        WebElement scheduled = page.findElement(By.cssSelector("li[data-maintenance='" + windowId + "']"));
        scheduled.findElement(By.tagName("summary")).click();
        dateTime(scheduled.findElement(By.cssSelector("input[name='endsAt']")), tomorrow.plus(Duration.ofHours(2)));
        scheduled.findElement(By.cssSelector("input[name='endsAt']")).submit();
        assertThat(notice(page)).isEqualTo("Maintenance window updated.");
        assertThat(Instant.parse(admin.get("/admin/maintenances/" + windowId)
                        .json()
                        .get("endsAt")
                        .asText()))
                .isEqualTo(tomorrow.plus(Duration.ofHours(2)));
        check("maintenance");
        page.findElement(By.cssSelector("li[data-maintenance='" + windowId + "'] .cancel button"))
                .click();
        assertThat(notice(page)).isEqualTo("Maintenance window cancelled.");
        assertThat(admin.get("/admin/maintenances/" + windowId).status()).isEqualTo(404);

        // The status changes reached the webhook (the very first attempt refused, its retry delivered); re-send one.
        page.findElement(By.linkText("Webhooks")).click();
        check("webhooks");
        page.findElement(By.linkText(receiver.url())).click();
        refreshUntil(
                page,
                () -> page.findElements(By.cssSelector(".status-pending")).isEmpty()
                        && page.getPageSource().contains("HTTP 500"));
        check("webhook");
        int before = deliveries().size();
        page.findElement(By.cssSelector("li[data-delivery] form button")).click();
        assertThat(notice(page)).startsWith("Queued again");
        Waiting.until(
                "the re-sent delivery is delivered",
                () -> deliveries().size() == before + 1
                        && deliveries().get(0).get("status").asText().equals("delivered"));
        assertThat(receiver.drain()).hasSize(before + 2);

        // Create a plan.
        page.findElement(By.linkText("Plans")).click();
        page.findElement(By.id("id")).sendKeys("pro");
        page.findElement(By.id("name")).sendKeys("Pro");
        page.findElement(By.id("rateLimitPerMinute")).sendKeys("600");
        page.findElement(By.id("id")).submit();
        assertThat(notice(page)).isEqualTo("Plan created.");
        Reply pro = admin.get("/admin/plans/pro");
        assertThat(pro.status()).isEqualTo(200);
        assertThat(pro.json().get("rateLimitPerMinute").asLong()).isEqualTo(600);
        check("plans");

        // Sign out: the console is closed to this browser again.
        page.findElement(By.cssSelector(".sign-out button")).click();
        browser.await(By.id("adminKey"), WAIT);
        assertThat(page.getCurrentUrl()).contains("/console/sign-in");
        page.get(node.baseUrl() + "/console/accounts/" + accountId);
        assertThat(page.getCurrentUrl()).endsWith("/console/sign-in");
        browser.assertNoSecurityPolicyViolations();
    }

    @Test
    @Order(2)
    void anErrorIsShownNextToItsFieldAndTheFormKeepsWhatWasTyped() {
        WebDriver page = browser.driver();
        signInFresh(page);
        String accountId = node.admin()
                .post("/admin/accounts", Map.of("name", "Typo Inc"))
                .json()
                .get("id")
                .asText();
        page.get(node.baseUrl() + "/console/accounts/" + accountId);
        page.findElement(By.id("amount")).sendKeys("12abc");
        page.findElement(By.id("amount")).submit();

        WebElement amount = page.findElement(By.id("amount"));
        assertThat(amount.getAttribute("value")).isEqualTo("12abc");
        assertThat(amount.getAttribute("aria-invalid")).isEqualTo("true");
        assertThat(amount.getAttribute("aria-describedby")).isEqualTo("amount-error");
        assertThat(page.findElement(By.id("amount-error")).getText()).startsWith("Enter a whole number");
        assertThat(balance(accountId)).isZero();
        check("account-error");
    }

    @Test
    @Order(3)
    void theContentSecurityPolicyBlocksInlineScript() {
        WebDriver page = browser.driver();
        signInFresh(page);
        page.get(node.baseUrl() + "/console/accounts");
        Object ran = browser.script("const s = document.createElement('script');"
                + " s.textContent = 'window.inlineScriptRan = true;';"
                + " document.body.appendChild(s); return window.inlineScriptRan === true;");
        assertThat(ran).isEqualTo(false);
        assertThat(browser.securityPolicyViolations()).isNotEmpty();
    }

    @Test
    @Order(4)
    void onAPhoneEveryPageFitsTheScreenAndTheKeyboardReachesEverything() {
        WebDriver page = browser.driver();
        signInFresh(page);
        String accountId = node.admin()
                .post("/admin/accounts", Map.of("name", "Phone Ltd", "balance", 10))
                .json()
                .get("id")
                .asText();
        try {
            browser.resize(390, 844);
            for (String path :
                    List.of("/console", "/console/accounts", "/console/accounts/" + accountId, "/console/services")) {
                page.get(node.baseUrl() + path);
                Object width = browser.script("return document.documentElement.scrollWidth;");
                assertThat(((Number) width).intValue())
                        .as("page width of %s", path)
                        .isLessThanOrEqualTo(390);
                assertThat(page.findElements(By.cssSelector("[tabindex]:not([tabindex='-1'])")))
                        .as("no custom tab order on %s", path)
                        .isEmpty();
            }
            browser.screenshot("console-account-phone.png");
            page.get(node.baseUrl() + "/console/accounts");
            page.findElement(By.tagName("body")).sendKeys(Keys.TAB);
            assertThat(page.switchTo().activeElement().getText()).isEqualTo("Skip to content");
        } finally {
            browser.resize(1280, 900);
        }
    }

    private static void signIn(WebDriver page) {
        WebElement key = page.findElement(By.id("adminKey"));
        key.sendKeys(TestNode.ADMIN_KEY);
        key.sendKeys(Keys.ENTER);
        browser.await(By.cssSelector(".sign-out"), WAIT);
    }

    private static void signInFresh(WebDriver page) {
        page.get(node.baseUrl() + "/console/sign-in");
        signIn(page);
    }

    /** axe-core finds nothing, no CSP complaint, and a screenshot for a person to look at. */
    private static void check(String name) {
        Axe.assertNoViolations(browser, name);
        browser.assertNoSecurityPolicyViolations();
        browser.screenshot("console-" + name + ".png");
    }

    private static JsonNode deliveries() {
        return node.admin()
                .get("/admin/webhooks/" + webhookId + "/deliveries")
                .json()
                .get("data");
    }

    /**
     * The notice of the page a click leads to, waiting for that page to arrive: a notice other than
     * the last one read (the page the click left may still show its own, then go stale as it is left).
     */
    private String notice(WebDriver page) {
        AtomicReference<String> text = new AtomicReference<>();
        Waiting.until("the next page's notice", () -> {
            List<WebElement> found = page.findElements(By.cssSelector(".notice"));
            if (found.isEmpty() || found.getFirst().equals(lastNotice)) {
                return false;
            }
            try {
                text.set(found.getFirst().getText());
            } catch (StaleElementReferenceException leftMeanwhile) {
                return false;
            }
            lastNotice = found.getFirst();
            return true;
        });
        return text.get();
    }

    /**
     * Types a UTC time into a {@code datetime-local} input the way Chromium's segmented field takes
     * it from the keyboard in an English locale: month, day, year, then hours, minutes and AM/PM.
     */
    private static void dateTime(WebElement input, Instant at) {
        input.sendKeys(DATE_TIME_KEYS.format(at.atOffset(ZoneOffset.UTC)));
        assertThat(input.getDomProperty("value"))
                .isEqualTo(at.atOffset(ZoneOffset.UTC).toLocalDateTime().toString());
    }

    private static long balance(String accountId) {
        return node.admin()
                .get("/admin/accounts/" + accountId)
                .json()
                .get("balance")
                .asLong();
    }

    private static void refreshUntil(WebDriver page, java.util.function.BooleanSupplier shown) {
        Instant deadline = Instant.now().plus(WAIT);
        while (!shown.getAsBoolean()) {
            assertThat(Instant.now()).as("the change showed").isBefore(deadline);
            page.navigate().refresh();
        }
    }
}
