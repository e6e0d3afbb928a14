package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.http.ClasspathResources;
import java.nio.charset.StandardCharsets;

/** axe-core (from its webjar) run inside the page the browser shows: accessibility rules, checked. */
public final class Axe {
    private static final String SOURCE = new String(
            ClasspathResources.read("/META-INF/resources/webjars/axe-core/"
                    + ClasspathResources.webjarVersion("org.webjars.npm", "axe-core") + "/axe.min.js"),
            StandardCharsets.UTF_8);

    private Axe() {}

    /** Fails with axe's own description of each violation on the current page. */
    public static void assertNoViolations(Browser browser, String page) {
        browser.script(SOURCE);
        Object violations = ((org.openqa.selenium.JavascriptExecutor) browser.driver())
                .executeAsyncScript("const done = arguments[arguments.length - 1];"
                        + " axe.run(document).then(r => done(JSON.stringify(r.violations.map(v =>"
                        + " ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(' '))})))))"
                        + ".catch(e => done('axe failed: ' + e));");
        assertThat(violations).as("axe-core violations on %s", page).isEqualTo("[]");
    }
}
