package dev.pulseledger.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Ends a test run with what was skipped and why, one line per reason and class (a test that needs a tool
 * the machine lacks says so in one line), printed and written to target/skipped-tests-PID.txt, which
 * {@code ./pulseledger test} sums up over the unit and integration runs. Registered through
 * META-INF/services, so every JUnit run on this class path has it.
 */
public final class SkippedTestsSummary implements TestExecutionListener {
    private static final String ASSUMPTION_PREFIX = "Assumption failed: ";
    private static final int MAX_REASON_LENGTH = 300;

    private final ConcurrentLinkedQueue<String> skipped = new ConcurrentLinkedQueue<>();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        skipped.add(line(reason, test));
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            String reason = result.getThrowable()
                    .map(Throwable::getMessage)
                    .filter(message -> message != null && !message.isBlank())
                    .orElse("aborted without a reason");
            skipped.add(line(reason, test));
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        if (skipped.isEmpty()) {
            return;
        }
        Map<String, Long> counted =
                skipped.stream().collect(Collectors.groupingBy(line -> line, TreeMap::new, Collectors.counting()));
        StringBuilder summary = new StringBuilder("Skipped tests (what they need, and which):\n");
        counted.forEach((line, count) ->
                summary.append("  ").append(count).append(" × ").append(line).append('\n'));
        System.out.print(summary);
        Path target = Path.of("target");
        if (Files.isDirectory(target)) {
            try {
                Files.write(
                        target.resolve(
                                "skipped-tests-" + ProcessHandle.current().pid() + ".txt"),
                        List.copyOf(skipped));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** "reason (TestClass)", the reason cut to its first line. */
    private static String line(String reason, TestIdentifier test) {
        String firstLine = reason.strip().lines().findFirst().orElse("").replace(ASSUMPTION_PREFIX, "");
        if (firstLine.length() > MAX_REASON_LENGTH) {
            firstLine = firstLine.substring(0, MAX_REASON_LENGTH) + "…";
        }
        return firstLine + " (" + className(test) + ")";
    }

    private static String className(TestIdentifier test) {
        return test.getSource()
                .map(source -> switch (source) {
                    case MethodSource method -> simple(method.getClassName());
                    case ClassSource type -> simple(type.getClassName());
                    default -> test.getDisplayName();
                })
                .orElse(test.getDisplayName());
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }
}
