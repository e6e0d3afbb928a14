package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.config.Config;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class StartupFailureTest {
    private static final PrintStream QUIET = new PrintStream(PrintStream.nullOutputStream());

    /** Thrown by the test after a chosen start-up step. */
    private static final class InjectedFailure extends RuntimeException {
        InjectedFailure(String step) {
            super("injected after " + step);
        }
    }

    @Test
    void aFailureAfterAnyStartUpStepClosesWhatWasStartedLeavingNoThreadAndNoDatabaseConnection() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        Config config = TestNode.config(url);
        List<String> steps = new ArrayList<>();
        try (Application warmUp = Application.start(config, QUIET, Clock.systemUTC(), steps::add)) {
            assertThat(warmUp.port()).isPositive();
        }
        assertThat(steps).contains("database", "http server").hasSizeGreaterThan(5);
        Set<Thread> before = liveThreads();

        for (String failing : steps) {
            assertThatThrownBy(() -> Application.start(config, QUIET, Clock.systemUTC(), step -> {
                        if (step.equals(failing)) {
                            throw new InjectedFailure(step);
                        }
                    }))
                    .isInstanceOf(InjectedFailure.class);

            try {
                Waiting.until(
                        "no thread is left after a failure after " + failing,
                        () -> newThreads(before).isEmpty());
            } catch (AssertionError e) {
                throw new AssertionError("Threads left after a failure after " + failing + ": " + newThreads(before));
            }
            // A backend leaves pg_stat_activity a moment after its client closed the socket.
            Waiting.until("no connection is left after a failure after " + failing, () -> connectionsTo(url) == 0);
        }
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                // The JDK's shared pool grows and shrinks on its own.
                .filter(thread -> !thread.getName().startsWith("ForkJoinPool"))
                // Helidon 4.5 builds one idle-connection Timer per WebServer and never cancels it (the server
                // stays registered with its ResumableSupport), so every server ever built leaves this thread.
                .filter(thread -> !thread.getName().equals("helidon-idle-connection-timer"))
                .collect(Collectors.toSet());
    }

    private static List<String> newThreads(Set<Thread> before) {
        return liveThreads().stream()
                .filter(thread -> !before.contains(thread))
                .map(Thread::getName)
                .toList();
    }

    private static int connectionsTo(String url) {
        String database = url.replaceFirst("^.*/([^/?]+)(\\?.*)?$", "$1");
        try (Connection connection = DriverManager.getConnection(TestStore.postgresServerUrl());
                PreparedStatement count =
                        connection.prepareStatement("SELECT count(*) FROM pg_stat_activity WHERE datname = ?")) {
            count.setString(1, database);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
