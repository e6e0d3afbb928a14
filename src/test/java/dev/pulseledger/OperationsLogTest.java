package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.LogCapture;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** What an operator sees of a node's life: its version, and a line when it stops. */
class OperationsLogTest {
    @Test
    void serveDashVPrintsTheVersionOfTheBuild() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CommandLine commandLine = Main.commandLine();
        commandLine.setOut(new PrintWriter(out, true, StandardCharsets.UTF_8));
        assertThat(commandLine.execute("serve", "-V")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).strip())
                .isEqualTo("Pulseledger " + BuildInfo.version())
                .matches("Pulseledger \\d+\\.\\d+\\.\\d+.*");
    }

    @Test
    void aGracefulShutdownIsLogged() {
        try (LogCapture logs = new LogCapture()) {
            TestNode.start(TestStore.SQLITE.newDatabaseUrl()).close();
            assertThat(logs.lines()).anyMatch(line -> line.contains("Pulseledger stopped"));
        }
    }
}
