package dev.pulseledger.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.store.Database;
import dev.pulseledger.support.TestRows;
import dev.pulseledger.support.TestStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@link WebhookStore#prune}: old finished deliveries go, a bounded batch at a time; pending ones stay. */
class WebhookStorePruneTest {
    private static final Instant CUTOFF = Instant.parse("2026-01-31T00:00:00Z");
    private static final Instant OLD = CUTOFF.minusSeconds(60);
    private static final Instant NEW = CUTOFF.plusSeconds(60);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesFinishedDeliveriesOlderThanTheCutoffAndKeepsTheRest(TestStore store) {
        try (Database database = withWebhookAndEvent(store)) {
            delivery(database, "whd_delivered", "delivered", OLD);
            delivery(database, "whd_failed", "failed", OLD);
            delivery(database, "whd_at_cutoff", "delivered", CUTOFF);
            delivery(database, "whd_new", "failed", NEW);

            assertThat(new WebhookStore(database).prune(CUTOFF, 10)).isEqualTo(2);
            assertThat(deliveries(database)).containsExactly("whd_at_cutoff", "whd_new");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void deletesAtMostTheLimitOldestFirstAndReturnsHowManyWent(TestStore store) {
        try (Database database = withWebhookAndEvent(store)) {
            for (String id : List.of("whd_1", "whd_2", "whd_3")) {
                delivery(database, id, "delivered", OLD);
            }
            delivery(database, "whd_new", "delivered", NEW);
            WebhookStore webhooks = new WebhookStore(database);

            assertThat(webhooks.prune(CUTOFF, 2)).isEqualTo(2);
            assertThat(deliveries(database)).containsExactly("whd_3", "whd_new");
            assertThat(webhooks.prune(CUTOFF, 2)).isEqualTo(1);
            assertThat(deliveries(database)).containsExactly("whd_new");
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void keepsAPendingDeliveryHoweverOld(TestStore store) {
        try (Database database = withWebhookAndEvent(store)) {
            delivery(database, "whd_pending", "pending", OLD);
            delivery(database, "whd_delivered", "delivered", OLD);

            assertThat(new WebhookStore(database).prune(CUTOFF, 10)).isEqualTo(1);
            assertThat(deliveries(database)).containsExactly("whd_pending");
        }
    }

    /** A fresh database with the webhook and the event every delivery here refers to. */
    private static Database withWebhookAndEvent(TestStore store) {
        Database database = TestRows.open(store);
        TestRows.update(
                database,
                "INSERT INTO webhooks (id, url, secret, created_at) VALUES ('wh_1', 'https://example.test/', 's', 0)",
                Map.of());
        TestRows.update(
                database,
                "INSERT INTO events (id, type, payload, created_at) VALUES ('ev_1', 'balance.low', '{}', 0)",
                Map.of());
        return database;
    }

    private static void delivery(Database database, String id, String status, Instant createdAt) {
        TestRows.update(
                database,
                "INSERT INTO webhook_deliveries (id, webhook_id, event_id, status, created_at)"
                        + " VALUES (:id, 'wh_1', 'ev_1', :status, :created_at)",
                Map.of("id", id, "status", status, "created_at", createdAt.toEpochMilli()));
    }

    private static List<String> deliveries(Database database) {
        return TestRows.strings(database, "SELECT id FROM webhook_deliveries ORDER BY seq");
    }
}
