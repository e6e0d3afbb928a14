package dev.pulseledger.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.NodeMetrics;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A node whose clock goes back (or another node's runs ahead) never writes an account's ledger back in
 * time: the account's new lines take its newest line's time, in the order they were written, and the
 * node counts such batches for its operators.
 */
class LedgerClockTest {
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aClockSetBackWritesAtTheAccountsNewestLineAndIsCounted(TestStore store) {
        Instant start = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        TestClock clock = new TestClock(start);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(100);
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/1").status())
                    .isEqualTo(201);

            clock.set(start.minus(Duration.ofHours(1)));
            assertThat(node.caller(caller.key()).post("/api/tokens/spend/2").status())
                    .isEqualTo(201);

            List<Instant> times = new ArrayList<>();
            JsonNode lines = node.admin()
                    .get("/admin/accounts/" + caller.accountId() + "/ledger")
                    .json()
                    .get("data");
            lines.forEach(line -> times.add(Instant.parse(line.get("createdAt").asText())));
            assertThat(lines.findValuesAsText("amount")).containsExactly("-2", "-1", "100");
            assertThat(times).containsExactly(start, start, start);
            assertThat(NodeMetrics.sum(node.baseUrl(), "pulseledger_ledger_clock_behind_total"))
                    .isEqualTo(1.0);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }
}
