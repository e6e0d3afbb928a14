package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.config.ConfigException;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class StartupTest {
    @Test
    void aPortThatCannotBeBoundStopsStartUpWithAMessageNamingTheSetting() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String port = Integer.toString(taken.getLocalPort());
            assertThatThrownBy(() -> Application.start(
                            ServeCommand.parseConfig(
                                    "--host",
                                    "127.0.0.1",
                                    "--port",
                                    port,
                                    "--admin-key",
                                    TestNode.ADMIN_KEY,
                                    "--database-url",
                                    TestStore.SQLITE.newDatabaseUrl()),
                            new PrintStream(PrintStream.nullOutputStream())))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("--port")
                    .hasMessageContaining(port);
        }
    }
}
