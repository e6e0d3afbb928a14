package dev.pulseledger.status.incidents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three nodes on one PostgreSQL database race for every maintenance step on one shared clock; one
 * is stopped in the middle of the windows. Each service must go under maintenance once and come
 * back once, whichever node took each step.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
class MaintenanceAcrossNodesTest {
    private static final int SERVICES = 8;
    private static final Instant NOW = Instant.parse("2026-11-23T08:00:00Z");
    private static final Instant START = NOW.plus(Duration.ofMinutes(10));
    private static final Instant END = NOW.plus(Duration.ofMinutes(70));

    @Test
    void eachStepHappensExactlyOnceWithThreeNodesUpAndOneStoppedMidWindow() {
        TestClock clock = new TestClock(NOW);
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(TestNode.start(TestNode.config(url, "--events-poll-ms", "10", "--db-pool-size", "4"), clock));
            }
            Api admin = nodes.get(2).admin();
            List<String> windows = new ArrayList<>();
            for (int i = 0; i < SERVICES; i++) {
                String status = i % 2 == 0 ? "operational" : "degraded_performance";
                admin.put("/admin/services/s" + i, Map.of("name", "Service " + i, "status", status));
                windows.add(MaintenanceTest.schedule(admin, List.of("s" + i), START, END));
            }
            // One more window over every service at once, overlapping the others.
            windows.add(MaintenanceTest.schedule(
                    admin, List.of("s0", "s1", "s2", "s3"), START.plus(Duration.ofMinutes(5)), END));

            clock.set(START.plus(Duration.ofMinutes(5)));
            Waiting.until(
                    "every window started",
                    () -> windows.stream()
                            .allMatch(id -> MaintenanceTest.status(admin, id).equals("in_progress")));
            nodes.removeFirst().close();
            clock.set(END);
            Waiting.until(
                    "every window ended",
                    () -> windows.stream()
                            .allMatch(id -> MaintenanceTest.status(admin, id).equals("completed")));

            for (int i = 0; i < SERVICES; i++) {
                String before = i % 2 == 0 ? "operational" : "degraded_performance";
                JsonNode history =
                        admin.get("/admin/services/s" + i + "/history").json().get("data");
                assertThat(transitions(history))
                        .as("history of s%d, newest first", i)
                        .containsExactly(
                                "under_maintenance -> " + before + " at " + END,
                                before + " -> under_maintenance at " + START.plus(Duration.ofMinutes(5)),
                                "created " + before);
                assertThat(IncidentApiTest.serviceStatus(admin, "s" + i)).isEqualTo(before);
            }
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    private static List<String> transitions(JsonNode history) {
        List<String> lines = new ArrayList<>();
        for (JsonNode change : history) {
            lines.add(
                    change.get("from").isNull()
                            ? "created " + change.get("to").asText()
                            : change.get("from").asText() + " -> "
                                    + change.get("to").asText() + " at "
                                    + change.get("at").asText());
        }
        return lines;
    }
}
