package dev.pulseledger.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.Application;
import dev.pulseledger.ServeCommand;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.TestStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class FirstAdminKeyTest {
    private static final int NODES = 3;
    private static final Pattern ADMIN_KEY = Pattern.compile("pl_admin_[0-9A-Za-z]{32}");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void nodesStartingTogetherOnAnEmptyDatabaseGenerateAndPrintOneAdminKeyThatAllAccept(TestStore store)
            throws Exception {
        String url = store.newDatabaseUrl();
        List<ByteArrayOutputStream> consoles = new ArrayList<>();
        List<Application> nodes = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(NODES)) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Application>> starting = new ArrayList<>();
            for (int i = 0; i < NODES; i++) {
                ByteArrayOutputStream console = new ByteArrayOutputStream();
                consoles.add(console);
                starting.add(pool.submit(() -> {
                    start.await();
                    return Application.start(
                            ServeCommand.parseConfig("--host", "127.0.0.1", "--port", "0", "--database-url", url),
                            new PrintStream(console, true, StandardCharsets.UTF_8));
                }));
            }
            start.countDown();
            for (Future<Application> node : starting) {
                nodes.add(node.get());
            }

            List<String> printed = new ArrayList<>();
            for (ByteArrayOutputStream console : consoles) {
                Matcher key = ADMIN_KEY.matcher(console.toString(StandardCharsets.UTF_8));
                while (key.find()) {
                    printed.add(key.group());
                }
            }
            assertThat(printed).hasSize(1);
            for (Application node : nodes) {
                Api admin = new Api("http://127.0.0.1:" + node.port(), printed.getFirst());
                assertThat(admin.get("/admin/plans").status()).isEqualTo(200);
            }
        } finally {
            nodes.forEach(Application::close);
        }
    }
}
