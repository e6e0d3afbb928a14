package dev.pulseledger.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Browser;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/** The interactive API reference renders this node's OpenAPI document in real headless Chromium. */
class ApiDocsBrowserTest {
    @Test
    void swaggerUiRendersTheNodesOwnDocumentUnderItsStrictPolicy() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
                Browser browser = Browser.start(true)) {
            // Swagger UI renders its operation list virtually (only what is near the viewport), so the
            // test deep-links to the operation, as a reader following a link would.
            browser.driver().get(node.baseUrl() + "/docs#/Documentation/getApiDocs");

            assertThat(browser.await(By.cssSelector(".info .title"), Duration.ofSeconds(30))
                            .getText())
                    .startsWith("Pulseledger");
            assertThat(browser.await(By.cssSelector(".opblock-summary-path[data-path='/docs']"), Duration.ofSeconds(10))
                            .isDisplayed())
                    .isTrue();
            browser.screenshot("api-docs.png");
            browser.assertNoSecurityPolicyViolations();
        }
    }
}
