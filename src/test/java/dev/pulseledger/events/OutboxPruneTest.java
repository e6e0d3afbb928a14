package dev.pulseledger.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestRows;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link Outbox#prune}: old events go, a bounded batch at a time, except those a webhook delivery refers to. */
class OutboxPruneTest {
    private static final Instant CUTOFF = Instant.parse("2026-01-31T00:00:00Z");
    private static final Instant OLD = CUTOFF.minusSeconds(60);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesEventsOlderThanTheCutoffAndKeepsTheRest(TestStore store) {
        try (Database database = TestRows.open(store)) {
            event(database, "ev_old", OLD);
            event(database, "ev_at_cutoff", CUTOFF);
            event(database, "ev_new", CUTOFF.plusSeconds(60));

            assertThat(prune(database, 10)).isEqualTo(1);
            assertThat(events(database)).containsExactly("ev_at_cutoff", "ev_new");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesAtMostTheLimitOldestFirstAndReturnsHowManyWent(TestStore store) {
        try (Database database = TestRows.open(store)) {
            for (String id : List.of("ev_1", "ev_2", "ev_3")) {
                event(database, id, OLD);
            }
            event(database, "ev_new", CUTOFF.plusSeconds(60));

            assertThat(prune(database, 2)).isEqualTo(2);
            assertThat(events(database)).containsExactly("ev_3", "ev_new");
            assertThat(prune(database, 2)).isEqualTo(1);
            assertThat(events(database)).containsExactly("ev_new");
            assertThat(prune(database, 2)).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void keepsAnOldEventThatADeliveryStillRefersTo(TestStore store) {
        try (Database database = TestRows.open(store)) {
            TestRows.update(
                    database,
                    "INSERT INTO webhooks (id, url, secret, created_at) VALUES ('wh_1', 'https://example.test/', 's', 0)",
                    Map.of());
            event(database, "ev_pending", OLD);
            event(database, "ev_delivered", OLD);
            event(database, "ev_unreferenced", OLD);
            delivery(database, "ev_pending", "pending");
            delivery(database, "ev_delivered", "delivered");

            assertThat(prune(database, 10)).isEqualTo(1);
            assertThat(events(database)).containsExactly("ev_pending", "ev_delivered");
        }
    }

    private static int prune(Database database, int limit) {
        return new Outbox(database, (connection, events, at) -> {}).prune(CUTOFF, limit);
    }

    private static void event(Database database, String id, Instant createdAt) {
        TestRows.update(
                database,
                "INSERT INTO events (id, type, payload, created_at) VALUES (:id, 'balance.low', '{}', :created_at)",
                Map.of("id", id, "created_at", createdAt.toEpochMilli()));
    }

    private static void delivery(Database database, String eventId, String status) {
        TestRows.update(
                database,
                "INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, created_at)"
                        + " VALUES (:id, 'wh_1', :event_id, :status, :created_at)",
                Map.of(
                        "id",
                        "whd_" + eventId,
                        "event_id",
                        eventId,
                        "status",
                        status,
                        "created_at",
                        OLD.toEpochMilli()));
    }

    private static List<String> events(Database database) {
        return TestRows.strings(database, "SELECT id FROM events ORDER BY seq");
    }
}
