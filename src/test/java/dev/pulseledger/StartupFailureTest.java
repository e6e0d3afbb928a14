package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pulseledger.app.StartedParts;
import dev.pulseledger.config.Config;
import dev.pulseledger.support.LogCapture;
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
        private static final long serialVersionUID = 1L;

        InjectedFailure(String step) {
            super("injected after " + step);
        }
    }

    /** The threads of the node's workers: none runs before every part is built. */
    private static final Set<String> WORKER_THREADS = Set.of(
            "access-feed",
            "renewals",
            "maintenance-scheduler",
            "event-feed",
            "webhook-worker",
            "idempotency-cleaner",
            "spend-activity",
            "request-deadlines");

    @Test
    void theNodeBuildsEveryPartBeforeItStartsAnyWorkerOrTheServer() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        Config config = TestNode.config(url);
        List<String> steps = new ArrayList<>();
        List<String> workersRunningWhenBuilt = new ArrayList<>();
        try (Application node = Application.start(config, QUIET, Clock.systemUTC(), step -> {
            steps.add(step);
            if (step.equals(StartedParts.BUILT)) {
                workersRunningWhenBuilt.addAll(liveThreads().stream()
                        .map(Thread::getName)
                        .filter(WORKER_THREADS::contains)
                        .toList());
            }
        })) {
            assertThat(node.port()).isPositive();
        }
        assertThat(workersRunningWhenBuilt).isEmpty();
        int built = steps.indexOf(StartedParts.BUILT);
        assertThat(steps.subList(0, built)).contains("database", "lookup database", "http server");
        assertThat(steps.subList(built + 1, steps.size()))
                .contains("renewals started", "event feed started", "http server started")
                .endsWith("http server started");
    }

    @Test
    void aFailureAfterAnyBuildOrStartStepClosesEverythingLeavingNoThreadAndNoDatabaseConnection() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        Config config = TestNode.config(url);
        List<String> steps = new ArrayList<>();
        try (Application warmUp = Application.start(config, QUIET, Clock.systemUTC(), steps::add)) {
            assertThat(warmUp.port()).isPositive();
        }
        assertThat(steps)
                .contains("database", StartedParts.BUILT, "renewals started", "http server started")
                .hasSizeGreaterThan(20);
        Set<Thread> before = liveThreads();

        LogCapture logs = new LogCapture();
        try (logs) {
            closeEverythingAfterEachFailingStep(config, url, steps, before);
        }
        // Every part closes cleanly, the ones never started included: nothing to warn the operator about.
        assertThat(logs.lines()).noneMatch(line -> line.contains("failed; closing the rest"));
    }

    private static void closeEverythingAfterEachFailingStep(
            Config config, String url, List<String> steps, Set<Thread> before) {
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
