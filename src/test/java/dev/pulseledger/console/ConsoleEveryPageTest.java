package dev.pulseledger.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.RouteTable;
import dev.pulseledger.support.Axe;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.RoutePaths;
import dev.pulseledger.support.SkippingClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import dev.pulseledger.support.WebhookReceiver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Every console page, found from the routes the node registered rather than from a list kept here:
 * each GET page, and what each POST answers (the page it leads to, and the page with errors beside
 * the fields when its inputs are emptied), plus the sign-in error, the CSRF refusal and the not-found
 * page. Each passes axe-core with no violation and no CSP complaint, fits 390 px with no custom tab
 * order, and is kept as {@code target/console-pages/*.png}. Every page template must have been seen,
 * so a new page cannot slip past.
 */
class ConsoleEveryPageTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final Path SHOTS = Path.of("console-pages");
    private static final int PHONE_WIDTH = 390;

    private static TestNode node;
    private static Browser browser;
    private static WebhookReceiver receiver;
    private static final Map<String, String> ids = new LinkedHashMap<>();
    private static final Set<String> templatesSeen = new TreeSet<>();
    private static int shots;

    @BeforeAll
    static void start() {
        browser = Browser.start(true);
        receiver = WebhookReceiver.start();
        SkippingClock clock = new SkippingClock();
        node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), clock, "--events-poll-ms", "50");
        ids.putAll(ConsoleFixtures.oneOfEach(node, receiver));
        ConsoleFixtures.draftIncidents(node, clock, 4);
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
    void everyConsolePageAndEveryAnswerToAFormPassesAxeFitsAPhoneAndIsKept() {
        WebDriver page = browser.driver();
        List<RouteTable.Route> routes = node.application().routes().stream()
                .filter(route -> route.pathTemplate().startsWith("/console"))
                .filter(route -> !route.pathTemplate().startsWith("/console/assets/"))
                .toList();

        // Signed out: the sign-in page, and its answer to an empty and to a wrong key.
        page.get(node.baseUrl() + ConsoleGuard.SIGN_IN);
        check("sign-in");
        nextPage(() -> page.findElement(By.id("adminKey")).sendKeys(Keys.ENTER));
        check("sign-in-empty");
        nextPage(() -> page.findElement(By.id("adminKey")).sendKeys("pl_not_an_admin_key", Keys.ENTER));
        assertThat(page.findElement(By.id("adminKey-error")).getText()).isEqualTo("This is not an admin key.");
        check("sign-in-refused");
        page.findElement(By.id("adminKey")).sendKeys(TestNode.ADMIN_KEY, Keys.ENTER);
        browser.await(By.cssSelector(".sign-out"), WAIT);

        // Every GET page, remembering the forms each one holds.
        Map<String, String> formPages = new LinkedHashMap<>();
        for (RouteTable.Route route : routes) {
            if (!route.method().equals("GET")) {
                continue;
            }
            String path = RoutePaths.concrete(route.pathTemplate(), ids);
            page.get(node.baseUrl() + path);
            check("get" + route.pathTemplate());
            for (WebElement form : page.findElements(By.cssSelector("form[method='post']"))) {
                formPages.putIfAbsent(form.getDomAttribute("action"), path);
            }
        }

        // Every POST: its form as the page fills it in, then with every text input emptied.
        List<RouteTable.Route> posts = routes.stream()
                .filter(route -> route.method().equals("POST"))
                .filter(route -> !route.pathTemplate().equals(ConsoleGuard.SIGN_IN))
                .filter(route -> !route.pathTemplate().equals("/console/sign-out"))
                .toList();
        for (RouteTable.Route route : posts) {
            Pattern action = RoutePaths.pattern(route.pathTemplate());
            String pagePath = formPages.entrySet().stream()
                    .filter(entry -> action.matcher(entry.getKey()).matches())
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no console page has a form that posts to "
                            + route.pathTemplate() + ": give it one, or a fixture that shows it"));
            for (boolean emptied : new boolean[] {false, true}) {
                page.get(node.baseUrl() + pagePath);
                submit(action, emptied, false);
                check("post" + route.pathTemplate() + (emptied ? "-emptied" : ""));
            }
        }

        // A form whose CSRF token was tampered with, and an id that names nothing.
        page.get(node.baseUrl() + "/console/accounts");
        submit(RoutePaths.pattern("/console/accounts"), false, true);
        assertThat(page.findElement(By.tagName("h1")).getText()).isEqualTo("Refused");
        check("csrf-refused");
        page.get(node.baseUrl() + "/console/accounts/acct_doesnotexist");
        assertThat(page.findElement(By.tagName("h1")).getText()).isEqualTo("Not found");
        check("not-found");

        // Signing out, last: the sign-in page says so.
        nextPage(() -> page.findElement(By.cssSelector(".sign-out button")).click());
        assertThat(page.findElement(By.tagName("body")).getDomAttribute("data-page"))
                .isEqualTo("sign-in");
        check("signed-out");

        assertThat(templatesSeen).as("console page templates seen").containsAll(pageTemplates());
    }

    /**
     * Submits the first form on the page whose action matches, as its submit button does (after
     * emptying its inputs or spoiling its CSRF token, if asked), and waits for the answer.
     */
    private static void submit(Pattern action, boolean emptied, boolean tamperedToken) {
        Object found = browser.script(
                "const [pattern, emptied, tampered] = arguments;"
                        + " const form = [...document.querySelectorAll('form[method=post]')]"
                        + "   .find(f => new RegExp('^' + pattern + '$').test(f.getAttribute('action')));"
                        + " if (!form) return false;"
                        + " if (emptied) form.querySelectorAll('input:not([type=hidden]):not([type=checkbox])')"
                        + "   .forEach(i => { i.value = ''; });"
                        + " if (tampered) form.querySelector('input[name=csrf]').value = 'x'.repeat(64);"
                        + " return true;",
                action.pattern(),
                emptied,
                tamperedToken);
        assertThat(found)
                .as("a form posting to %s on %s", action, browser.driver().getCurrentUrl())
                .isEqualTo(true);
        nextPage(() -> browser.script(
                "const pattern = arguments[0];"
                        + " [...document.querySelectorAll('form[method=post]')]"
                        + "   .find(f => new RegExp('^' + pattern + '$').test(f.getAttribute('action')))"
                        + "   .requestSubmit();",
                action.pattern()));
    }

    /** Does what leads to another page, and waits until that page has arrived. */
    private static void nextPage(Runnable act) {
        browser.script("document.body.dataset.left = 'yes';");
        act.run();
        Waiting.until(
                "the next page",
                () -> Boolean.TRUE.equals(browser.script("return document.readyState === 'complete'"
                        + " && document.body !== null && document.body.dataset.left === undefined"
                        + " && document.body.dataset.page !== undefined;")));
    }

    /** axe-core, the CSP, 390 px without sideways scrolling or custom tab order, and screenshots of both widths. */
    private static void check(String name) {
        WebDriver page = browser.driver();
        String slug = String.format("%02d-", ++shots)
                + name.replaceAll("[^A-Za-z0-9]+", "-").replaceAll("-$", "");
        templatesSeen.add(page.findElement(By.tagName("body")).getDomAttribute("data-page"));
        Axe.assertNoViolations(browser, name);
        browser.assertNoSecurityPolicyViolations();
        browser.screenshot(SHOTS.resolve(slug + ".png").toString());
        try {
            browser.resize(PHONE_WIDTH, 844);
            Waiting.until(
                    "the page laid out at 390 px",
                    () -> ((Number) browser.script("return window.innerWidth;")).intValue() <= PHONE_WIDTH);
            Object width = browser.script("return document.documentElement.scrollWidth;");
            assertThat(((Number) width).intValue())
                    .as("width of %s at 390 px", name)
                    .isLessThanOrEqualTo(PHONE_WIDTH);
            assertThat(page.findElements(By.cssSelector("[tabindex]:not([tabindex='-1'])")))
                    .as("no custom tab order on %s", name)
                    .isEmpty();
            browser.screenshot(SHOTS.resolve(slug + "-phone.png").toString());
        } finally {
            browser.resize(1280, 900);
        }
    }

    /** The console's full pages: every template that extends the layout. */
    private static Set<String> pageTemplates() {
        try {
            Path folder = Path.of(ConsoleView.class
                    .getClassLoader()
                    .getResource("console/templates")
                    .toURI());
            Set<String> pages = new TreeSet<>();
            List<Path> files;
            try (Stream<Path> listed = Files.list(folder)) {
                files = new ArrayList<>(listed.toList());
            }
            for (Path file : files) {
                if (Files.readString(file, StandardCharsets.UTF_8).startsWith("{% extends \"layout\" %}")) {
                    pages.add(file.getFileName().toString().replace(".peb", ""));
                }
            }
            assertThat(pages).contains("dashboard", "maintenance", "message", "key-issued");
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
