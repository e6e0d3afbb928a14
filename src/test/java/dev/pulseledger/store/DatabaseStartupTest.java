package dev.pulseledger.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.Main;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Start-up waits for the database for --db-startup-timeout-s, then gives up saying why. */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class DatabaseStartupTest {
    private static final Pattern DATABASE_NAME = Pattern.compile("/([a-z0-9_]+)\\?");

    @Test
    void aNodeGivesUpOnAnUnreachableDatabaseAfterItsStartupTimeoutAndSaysWhy() {
        String password = "never-printed-secret";
        StringWriter err = new StringWriter();

        int exitCode = Main.commandLine()
                .setErr(new PrintWriter(err, true))
                .execute(
                        "serve",
                        "--port",
                        "0",
                        "--admin-key",
                        TestNode.ADMIN_KEY,
                        "--database-url",
                        "jdbc:postgresql://127.0.0.1:1/pulseledger?user=postgres&password=" + password,
                        "--db-startup-timeout-s",
                        "1",
                        "--db-connection-timeout-ms",
                        "500");

        assertThat(exitCode).isEqualTo(2);
        assertThat(err.toString())
                .startsWith("pulseledger: ")
                .contains("did not answer within 1 s")
                .contains("127.0.0.1:1")
                .doesNotContain(password);
    }

    @Test
    void startUpWaitsForADatabaseThatAppearsLate() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        String name = databaseName(url);
        maintenance("DROP DATABASE " + name);

        CompletableFuture<TestNode> starting =
                CompletableFuture.supplyAsync(() -> TestNode.start(url, "--db-startup-timeout-s", "60"));
        Thread.sleep(Duration.ofSeconds(2));
        assertThat(starting).as("start-up while the database is missing").isNotDone();
        maintenance("CREATE DATABASE " + name);

        try (TestNode node = starting.get(60, TimeUnit.SECONDS)) {
            assertThat(node.anonymous().get("/health/ready").status()).isEqualTo(200);
        }
    }

    private static String databaseName(String url) {
        Matcher matcher = DATABASE_NAME.matcher(url);
        assertThat(matcher.find()).as(url).isTrue();
        return matcher.group(1);
    }

    /** Runs one statement on the server's maintenance database; the SQL is made from test constants. */
    private static void maintenance(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(TestStore.postgresServerUrl());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
