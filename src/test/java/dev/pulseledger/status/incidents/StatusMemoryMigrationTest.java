package dev.pulseledger.status.incidents;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A database made before status history existed upgrades in place: its services get their first
 * history row and a creation time, so their uptime starts when they were last written, not at 0 %.
 */
class StatusMemoryMigrationTest {
    private static final Instant WRITTEN = Instant.parse("2026-11-20T12:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void servicesFromBeforeTheHistoryGetTheirFirstChangeAndUptimeFromThen(TestStore store) throws SQLException {
        String url = store.newDatabaseUrlMigratedTo("3");
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement insert = connection.prepareStatement("INSERT INTO services (id, name, status,"
                        + " spotlighted, position, public, updated_at) VALUES ('api', 'Public API', 'partial_outage',"
                        + " TRUE, 0, TRUE, ?)")) {
            insert.setLong(1, WRITTEN.toEpochMilli());
            insert.executeUpdate();
        }

        TestClock clock = new TestClock(Instant.parse("2026-11-21T12:00:00Z"));
        try (TestNode node = TestNode.start(TestNode.config(url), clock)) {
            JsonNode history =
                    node.admin().get("/admin/services/api/history").json().get("data");
            assertThat(history).hasSize(1);
            assertThat(history.get(0).get("from").isNull()).isTrue();
            assertThat(history.get(0).get("to").asText()).isEqualTo("partial_outage");
            assertThat(history.get(0).get("at").asText()).isEqualTo(WRITTEN.toString());

            String key = new Fixtures(node).caller(0).key();
            JsonNode uptime = node.caller(key)
                    .get("/api/pulse/services/api/uptime?days=2")
                    .json();
            assertThat(uptime.at("/days/0/uptime").asDouble()).isEqualTo(0.7);
            assertThat(uptime.at("/days/1/uptime").asDouble()).isEqualTo(0.7);
        }
    }
}
