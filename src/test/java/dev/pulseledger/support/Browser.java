package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Real headless Chromium (Debian's {@code chromium} and {@code chromium-driver} packages) driven
 * through ChromeDriver. Without them a test is skipped on a workstation but fails under CI, where
 * {@code .ci/run} installs them, so a missing browser can never pass as green.
 */
public final class Browser implements AutoCloseable {
    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final String INSTALL = "apt-get update && apt-get install -y chromium chromium-driver";

    private final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** A fresh browser profile with a desktop-sized window; JavaScript on or off. */
    public static Browser start(boolean javascript) {
        requireInstalled();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--hide-scrollbars",
                "--window-size=1280,900");
        if (!javascript) {
            options.setExperimentalOption("prefs", Map.of("profile.managed_default_content_settings.javascript", 2));
        }
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        options.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60));
        return new Browser(driver);
    }

    private static void requireInstalled() {
        boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
        String message = "Browser tests need " + CHROMIUM + " and " + CHROMEDRIVER + ": " + INSTALL;
        if (!installed && "true".equals(System.getenv("CI"))) {
            Assertions.fail(message + " (CI must install them; .ci/run does)");
        }
        Assumptions.assumeTrue(installed, message);
    }

    public WebDriver driver() {
        return driver;
    }

    /** The first element {@code locator} finds, waiting up to {@code timeout} for a script to draw it. */
    public WebElement await(By locator, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        List<WebElement> found = driver.findElements(locator);
        while (found.isEmpty()) {
            assertThat(Instant.now())
                    .as("%s appeared within %s", locator, timeout)
                    .isBefore(deadline);
            Thread.onSpinWait();
            found = driver.findElements(locator);
        }
        return found.getFirst();
    }

    public void resize(int widthPixels, int heightPixels) {
        driver.manage().window().setSize(new Dimension(widthPixels, heightPixels));
    }

    /** Emulates the visitor's colour preference, {@code light} or {@code dark}, for the pages shown next. */
    public void colorScheme(String scheme) {
        driver.executeCdpCommand(
                "Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    /** Runs JavaScript in the page through the driver (works even where the page may run none). */
    public Object script(String javascript, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(javascript, args);
    }

    /** Saves the whole page, at the window's width, to {@code target/<name>} for a person to look at. */
    @SuppressWarnings("unchecked")
    public Path screenshot(String name) {
        Map<String, Object> metrics = driver.executeCdpCommand("Page.getLayoutMetrics", Map.of());
        Map<String, Number> content = (Map<String, Number>) metrics.get("cssContentSize");
        Map<String, Object> shot = driver.executeCdpCommand(
                "Page.captureScreenshot",
                Map.of(
                        "format",
                        "png",
                        "captureBeyondViewport",
                        true,
                        "clip",
                        Map.of(
                                "x", 0,
                                "y", 0,
                                "width", content.get("width"),
                                "height", content.get("height"),
                                "scale", 1)));
        Path file = Path.of("target", name);
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, Base64.getDecoder().decode((String) shot.get("data")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /** Console messages where the page's Content-Security-Policy refused something. */
    public List<String> securityPolicyViolations() {
        return driver.manage().logs().get(LogType.BROWSER).getAll().stream()
                .map(LogEntry::getMessage)
                .filter(message -> message.contains("Content Security Policy"))
                .toList();
    }

    public void assertNoSecurityPolicyViolations() {
        assertThat(securityPolicyViolations())
                .as("CSP violations in the browser console")
                .isEmpty();
    }

    @Override
    public void close() {
        driver.quit();
    }
}
