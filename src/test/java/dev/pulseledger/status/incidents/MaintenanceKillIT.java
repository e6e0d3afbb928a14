package dev.pulseledger.status.incidents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The packaged jar, three processes on one PostgreSQL database, one killed with SIGKILL in the middle
 * of the maintenance windows: every service still goes under maintenance once and comes back once.
 * A separate process keeps the real clock, so the windows are real seconds long; the test polls with
 * deadlines and never sleeps. {@link MaintenanceAcrossNodesTest} covers the same on a moved clock.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class MaintenanceKillIT {
    private static final int SERVICES = 4;
    private static final Duration LEAD = Duration.ofSeconds(3);
    private static final Duration WINDOW = Duration.ofSeconds(15);

    @Test
    void eachStepHappensOnceWhenANodeIsKilledMidWindow() {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<JarNode> nodes = new ArrayList<>();
        try {
            // Started side by side: each is a JVM of its own, and the test waits for all three.
            List<CompletableFuture<JarNode>> starting = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                starting.add(CompletableFuture.supplyAsync(() -> JarNode.start(url, "--events-poll-ms", "100")));
            }
            starting.forEach(node -> nodes.add(node.join()));
            Api admin = nodes.get(2).admin();
            for (int i = 0; i < SERVICES; i++) {
                admin.put("/admin/services/s" + i, Map.of("name", "Service " + i, "status", "degraded_performance"));
            }
            Instant start = Instant.now().plus(LEAD).truncatedTo(ChronoUnit.SECONDS);
            Instant end = start.plus(WINDOW);
            List<String> windows = new ArrayList<>();
            for (int i = 0; i < SERVICES; i++) {
                windows.add(MaintenanceTest.schedule(admin, List.of("s" + i), start, end));
            }

            Waiting.until(
                    "every window started",
                    () -> windows.stream()
                            .allMatch(id -> MaintenanceTest.status(admin, id).equals("in_progress")));
            assertThat(Instant.now()).as("the kill comes inside the windows").isBefore(end);
            nodes.removeFirst().kill();
            Waiting.until(
                    "every window ended",
                    () -> windows.stream()
                            .allMatch(id -> MaintenanceTest.status(admin, id).equals("completed")));

            for (int i = 0; i < SERVICES; i++) {
                JsonNode history =
                        admin.get("/admin/services/s" + i + "/history").json().get("data");
                List<String> changes = new ArrayList<>();
                history.forEach(change -> changes.add(
                        change.get("from").asText() + " -> " + change.get("to").asText()));
                assertThat(changes)
                        .as("history of s%d, newest first", i)
                        .containsExactly(
                                "under_maintenance -> degraded_performance",
                                "degraded_performance -> under_maintenance",
                                "null -> degraded_performance");
            }
        } finally {
            nodes.forEach(JarNode::close);
        }
    }
}
