package dev.pulseledger.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Reading the outbox by type, on both stores: no types asked for reads nothing, and does not fail. */
class OutboxTest {
    private static final Instant NOW = Instant.parse("2026-12-07T12:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void noTypesReadNoEventsAndTheAskedForTypesReadTheirOwn(TestStore store) {
        try (Database database = Database.open(new Database.Settings(
                store.newDatabaseUrl(), 2, Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30)))) {
            Outbox outbox = new Outbox(database, (connection, events, at) -> {});
            database.inTransaction(connection -> outbox.append(
                    connection,
                    List.of(
                            NewEvent.serviceStatusChanged("api", "API", "operational", "major_outage", true),
                            NewEvent.incidentCreated("{}", true)),
                    NOW));

            assertThat(outbox.after(Set.of(), 0, 10)).isEmpty();
            assertThat(outbox.after(Set.of(EventType.INCIDENT_CREATED), 0, 10))
                    .extracting(StoredEvent::type)
                    .containsExactly(EventType.INCIDENT_CREATED);
            assertThat(outbox.after(Set.of(EventType.SERVICE_STATUS_CHANGED, EventType.INCIDENT_CREATED), 0, 10))
                    .extracting(StoredEvent::type)
                    .containsExactly(EventType.SERVICE_STATUS_CHANGED, EventType.INCIDENT_CREATED);
        }
    }
}
