package dev.pulseledger.support;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.platform.engine.discovery.ClassNameFilter;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the test classes named as arguments (simple names, found in any package, so a move does not lose
 * them) in this JVM, prints JUnit's summary, and exits 0 only when
 * some ran and none failed: for a test that runs part of the suite in a JVM and environment of its own.
 */
public final class SelectedTests {
    private static final int MAX_FAILURE_LINES = 40;

    private SelectedTests() {}

    public static void main(String[] simpleClassNames) {
        String names = Arrays.stream(simpleClassNames).map(Pattern::quote).collect(Collectors.joining("|"));
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(DiscoverySelectors.selectPackage("dev.pulseledger"))
                .filters(ClassNameFilter.includeClassNamePatterns(".*\\.(" + names + ")"))
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        summary.printTo(out);
        summary.printFailuresTo(out, MAX_FAILURE_LINES);
        out.flush();
        System.exit(summary.getTotalFailureCount() == 0 && summary.getTestsSucceededCount() > 0 ? 0 : 1);
    }
}
