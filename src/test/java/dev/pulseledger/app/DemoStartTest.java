package dev.pulseledger.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code serve --demo} as a newcomer meets it: the console names every URL worth opening at the real
 * port, its curl works as pasted, and the status page is on with a demo incident and maintenance.
 */
class DemoStartTest {
    private static final Pattern CURL = Pattern.compile("curl -H 'X-ApiKey: (pl_[A-Za-z0-9]+)' (\\S+)");

    @Test
    void theConsoleNamesTheUrlsAtTheRealPortAndItsCurlWorksAsPasted() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--demo")) {
            String console = node.console();
            String base = node.baseUrl() + "/";

            assertThat(console)
                    .contains("Pulseledger is running at " + base)
                    .contains("Console      " + base + "console (sign in with the admin key: the configured key")
                    .contains("Status page  " + base + "status\n")
                    .contains("API docs     " + base + "docs")
                    .contains("Metrics      " + base + "metrics")
                    .doesNotContain("<port>")
                    .doesNotContain(TestNode.ADMIN_KEY);
            Matcher curl = CURL.matcher(console);
            assertThat(curl.find()).as(console).isTrue();
            assertThat(curl.group(2)).isEqualTo(base + "api/pulse");
            assertThat(node.caller(curl.group(1)).get("/api/pulse").status()).isEqualTo(200);
        }
    }

    @Test
    void theStatusPageIsOnWithTheDemoIncidentAndMaintenance() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl(), "--demo")) {
            var page = node.anonymous().get("/status");

            assertThat(page.status()).isEqualTo(200);
            assertThat(page.text()).contains(DemoSeed.DEMO_INCIDENT).contains(DemoSeed.DEMO_MAINTENANCE);
        }
    }

    @Test
    void withoutTheDemoTheStatusPageStaysOffAndTheConsoleSaysHowToTurnItOn() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.anonymous().get("/status").status()).isEqualTo(404);
            assertThat(node.console()).contains("status (off: start with --public-status-page to serve it)");
        }
    }
}
