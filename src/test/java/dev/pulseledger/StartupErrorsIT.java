package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar, started as an operator would with something wrong: it stops within seconds
 * with exit code 2 and one line that says what and where, never a stack trace.
 */
class StartupErrorsIT {
    private static final Path JAR = Path.of("target", "pulseledger.jar");
    /** Far below the 60 s a database start-up wait would take. */
    private static final Duration QUICK = Duration.ofSeconds(20);

    @TempDir
    Path temp;

    @Test
    void aPortInUse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String out =
                    failedStart("--port", Integer.toString(taken.getLocalPort()), "--database-url", sqlite("ok/db.db"));
            assertThat(out).startsWith("pulseledger: Cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void aDataFolderThatCannotBeCreated() throws Exception {
        Files.writeString(temp.resolve("a-file"), "in the way");
        String out = failedStart("--database-url", sqlite("a-file/data/db.db"));
        assertThat(out).startsWith("pulseledger: Cannot create the data folder " + temp.resolve("a-file/data"));
    }

    @Test
    void aDatabasePathThatIsAFolder() throws Exception {
        Files.createDirectories(temp.resolve("data"));
        String out = failedStart("--database-url", sqlite("data"));
        assertThat(out)
                .startsWith("pulseledger: --database-url / PULSELEDGER_DATABASE_URL: " + temp.resolve("data")
                        + " is a folder");
    }

    @Test
    void aDatabaseUrlWithoutAFile() throws Exception {
        String out = failedStart("--database-url", "jdbc:sqlite:");
        assertThat(out).contains("names no file");
    }

    private String sqlite(String relative) {
        return "jdbc:sqlite:" + temp.resolve(relative);
    }

    /** Runs {@code serve} with these flags; asserts exit code 2 within seconds and one line of output. */
    private String failedStart(String... flags) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar",
                JAR.toString(),
                "serve",
                "--host",
                "127.0.0.1",
                "--admin-key",
                "test-admin-key-0123456789"));
        command.addAll(List.of(flags));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        boolean ended = process.waitFor(QUICK.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(ended).as("stopped within " + QUICK + ": " + out).isTrue();
        assertThat(process.exitValue()).as(out).isEqualTo(2);
        assertThat(out.lines()).as("one line, no stack trace").hasSize(1);
        return out;
    }
}
