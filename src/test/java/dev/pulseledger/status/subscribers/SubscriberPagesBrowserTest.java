package dev.pulseledger.status.subscribers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Axe;
import dev.pulseledger.support.Browser;
import dev.pulseledger.support.MailServer;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;

/**
 * A subscriber's pages in real headless Chromium, checked by axe-core at desktop width and on a 390 px
 * phone: the status page's subscribe form, the confirmation, the manage page, unsubscribe, and the
 * page a forged link shows.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SubscriberPagesBrowserTest {
    private static MailServer mail;
    private static TestNode node;
    private static Browser browser;

    @BeforeAll
    static void start() {
        browser = Browser.start(true);
        mail = MailServer.start();
        node = SubscriberMailTest.node(TestStore.SQLITE.newDatabaseUrl(), mail);
        SubscriberMailTest.services(node.admin(), "api", "dashboard");
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
        if (mail != null) {
            mail.close();
        }
        if (browser != null) {
            browser.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1280, 390})
    void subscribeConfirmManageAndUnsubscribeAreAccessibleAndFitTheScreen(int widthPixels) {
        String email = "reader" + widthPixels + "@example.org";
        WebDriver page = browser.driver();
        browser.resize(widthPixels, 900);
        try {
            page.get(node.baseUrl() + "/status");
            page.findElement(By.id("subscribe-email")).sendKeys(email);
            page.findElement(By.id("service-api")).click();
            check("the status page with its subscribe form", widthPixels);
            submit(By.cssSelector(".subscribe button[type=submit]"));
            assertThat(heading(page)).isEqualTo("Check your inbox");
            check("the accepted page", widthPixels);

            Waiting.until("the confirmation mail", () -> mail.to(email).size() == 1);
            page.get(local(mail.to(email).getFirst().link("/confirm")));
            assertThat(heading(page)).isEqualTo("Confirm your subscription");
            check("the confirmation page", widthPixels);
            submit(By.cssSelector("form.subscribe button[type=submit]"));
            assertThat(heading(page)).isEqualTo("You are subscribed");
            assertThat(page.findElement(By.id("service-api")).isSelected()).isTrue();
            assertThat(page.findElement(By.id("service-dashboard")).isSelected())
                    .isFalse();
            check("the manage page after confirming", widthPixels);

            page.findElement(By.id("service-dashboard")).click();
            submit(By.cssSelector("button[value=save]"));
            assertThat(page.findElement(By.cssSelector("[role=status]")).getText())
                    .isEqualTo("Saved.");
            assertThat(page.findElement(By.id("service-dashboard")).isSelected())
                    .isTrue();
            check("the manage page after saving", widthPixels);

            SubscriberMailTest.incident(node.admin(), "Dashboard slow " + widthPixels, "dashboard");
            Waiting.until("the notice", () -> mail.to(email).size() == 2);
            page.get(local(mail.to(email).get(1).link("/unsubscribe")));
            assertThat(heading(page)).isEqualTo("Unsubscribe");
            check("the unsubscribe page", widthPixels);
            submit(By.cssSelector("form.subscribe button[type=submit]"));
            assertThat(heading(page)).isEqualTo("You have left");
            check("the page after leaving", widthPixels);

            page.get(node.baseUrl() + "/status/subscriptions/manage?token=forged");
            assertThat(heading(page)).isEqualTo("This link does not work");
            check("the page of a forged link", widthPixels);
            browser.assertNoSecurityPolicyViolations();
        } finally {
            browser.resize(1280, 900);
        }
    }

    /** axe-core finds nothing, and nothing is wider than the window. */
    private static void check(String what, int widthPixels) {
        Axe.assertNoViolations(browser, what + " at " + widthPixels + " px");
        Object scrollWidth = browser.script("return document.documentElement.scrollWidth;");
        assertThat(((Number) scrollWidth).intValue()).as("width of %s", what).isLessThanOrEqualTo(widthPixels);
        browser.screenshot("subscribers-" + what.replace(' ', '-') + "-" + widthPixels + ".png");
    }

    /** Presses a form's button and waits until the page it leads to has arrived. */
    private static void submit(By button) {
        browser.script("document.body.dataset.left = 'yes';");
        browser.driver().findElement(button).click();
        Waiting.until(
                "the next page",
                () -> Boolean.TRUE.equals(browser.script("return document.readyState === 'complete'"
                        + " && document.body !== null && document.body.dataset.left === undefined;")));
    }

    private static String heading(WebDriver page) {
        return page.findElement(By.tagName("h1")).getText();
    }

    /** A link from a mail, on the node the test runs (mails name the configured public address). */
    private static String local(String link) {
        return node.baseUrl() + link.substring(SubscriberMailTest.BASE.length());
    }
}
