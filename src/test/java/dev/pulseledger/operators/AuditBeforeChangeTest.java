package dev.pulseledger.operators;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.keys.Actor;
import dev.pulseledger.keys.Role;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An audit entry exists before its change runs: while the change has not answered (or when its node stopped
 * before it did) the entry shows an unknown outcome; a change that answered keeps its status, one refused
 * leaves no entry.
 */
class AuditBeforeChangeTest {
    private static final Actor OPERATOR = new Actor("op_audit", "Audit Tester", Role.OWNER, Actor.VIA_KEY, "key_1");

    @Test
    void theEntryIsWrittenBeforeTheChangeAndGetsItsOutcomeAfter() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl());
                Database database = LedgerAudit.open(node.databaseUrl())) {
            AuditLog log = new AuditLog(database, Clock.systemUTC());

            long running = log.begin(OPERATOR, "POST", "/admin/plans");
            JsonNode newest = newest(node);
            assertThat(newest.path("operatorId").asText()).isEqualTo("op_audit");
            assertThat(newest.path("status").isNull())
                    .as("outcome unknown while it runs")
                    .isTrue();

            log.end(running, 201, true);
            assertThat(newest(node).path("status").asInt()).isEqualTo(201);

            long refused = log.begin(OPERATOR, "DELETE", "/admin/plans/free");
            log.end(refused, 409, false);
            assertThat(newest(node).path("path").asText())
                    .as("a refused change leaves no entry")
                    .isEqualTo("/admin/plans");
        }
    }

    @Test
    void aChangeThroughTheApiIsAuditedWithItsStatusAndARefusedOneIsNot() {
        try (TestNode node = TestNode.start(TestStore.SQLITE.newDatabaseUrl())) {
            assertThat(node.admin()
                            .post("/admin/plans", Map.of("id", "audited", "name", "Audited", "allowance", 10))
                            .status())
                    .isEqualTo(201);
            assertThat(node.admin()
                            .post("/admin/plans", Map.of("id", "audited", "name", "Again", "allowance", 10))
                            .status())
                    .isEqualTo(409);
            JsonNode newest = newest(node);
            assertThat(newest.path("path").asText()).isEqualTo("/admin/plans");
            assertThat(newest.path("status").asInt()).isEqualTo(201);
            assertThat(node.admin().get("/admin/audit").json().path("data")).hasSize(1);
        }
    }

    private static JsonNode newest(TestNode node) {
        return node.admin().get("/admin/audit?limit=1").json().path("data").get(0);
    }
}
