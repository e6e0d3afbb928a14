package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.SelectedTests;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On a machine where no PostgreSQL answers at the test URL (a laptop), the suite's PostgreSQL part runs
 * against an embedded server the tests start from Maven artifacts: the shared store suite, in a JVM of
 * its own whose URL points at a closed port, outside CI.
 */
class EmbeddedPostgresIT {
    private static final Pattern SUCCESSFUL = Pattern.compile("(\\d+) tests successful");

    @TempDir
    Path temp;

    @Test
    void theSharedStoreSuiteRunsOnAnEmbeddedServerWhenNoneAnswersAtTheTestUrl() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        Path output = temp.resolve("output.txt");
        ProcessBuilder builder = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--enable-native-access=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        SelectedTests.class.getName(),
                        "LedgerStoreTest")
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        builder.environment().remove("CI");
        builder.environment()
                .put(
                        "PULSELEDGER_TEST_POSTGRES_URL",
                        "jdbc:postgresql://127.0.0.1:" + closedPort + "/postgres?user=postgres");
        Process process = builder.start();
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).as("the run ended").isTrue();
        String printed = Files.readString(output, StandardCharsets.UTF_8);

        assertThat(process.exitValue()).as(printed).isZero();
        assertThat(printed)
                .contains("nothing answers at jdbc:postgresql://127.0.0.1:" + closedPort)
                .contains("the tests use an embedded PostgreSQL at jdbc:postgresql://127.0.0.1:")
                .contains("0 tests failed");
        assertThat(successfulTests(printed)).as(printed).isPositive();
    }

    /** The count in JUnit's "[ 13 tests successful ]" line. */
    private static int successfulTests(String printed) {
        Matcher matcher = SUCCESSFUL.matcher(printed);
        assertThat(matcher.find()).as("a JUnit summary in: %s", printed).isTrue();
        return Integer.parseInt(matcher.group(1));
    }
}
