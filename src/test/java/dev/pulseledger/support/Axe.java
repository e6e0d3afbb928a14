package dev.pulseledger.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.openqa.selenium.JavascriptExecutor;

/**
 * axe-core (the {@code org.webjars.npm:axe-core} test dependency) run inside the page the browser
 * shows: every rule of WCAG 2.1 A and AA plus axe's best practices.
 */
public final class Axe {
    /** The version of the test dependency in pom.xml ({@code axe-core.version}). */
    private static final String VERSION = "4.6.3";

    private static final String SCRIPT = "/META-INF/resources/webjars/axe-core/" + VERSION + "/axe.min.js";
    private static final String RUN = """
            const done = arguments[arguments.length - 1];
            axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}})
               .then(results => done(results.violations.map(v =>
                   v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.map(n => n.target.join(' ')).join(', '))))
               .catch(error => done(['axe failed: ' + error]));
            """;

    private Axe() {}

    /** The violations axe finds on the page shown now, one line each; empty when there is none. */
    @SuppressWarnings("unchecked")
    public static List<String> violations(Browser browser) {
        JavascriptExecutor page = (JavascriptExecutor) browser.driver();
        page.executeScript(source());
        Object found = page.executeAsyncScript(RUN);
        return new ArrayList<>((List<String>) found);
    }

    private static String source() {
        try (InputStream in = Axe.class.getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException(SCRIPT + " is missing: the axe-core test dependency provides it");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
