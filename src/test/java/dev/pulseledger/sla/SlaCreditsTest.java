package dev.pulseledger.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CONTRACT §13: a test clock moved across daily period ends while every node's background sweeps run (three
 * nodes on PostgreSQL, one on SQLite): each breached period is credited exactly once with
 * {@code floor(allowance × creditPercent / 100)}, and a period that met its SLA credits nothing.
 */
class SlaCreditsTest {
    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final Duration DAY = Duration.ofDays(1);

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void eachBreachedPeriodIsCreditedOnceOnEveryNode(TestStore store) {
        TestClock clock = new TestClock(T0);
        String url = store.newDatabaseUrl();
        List<TestNode> nodes = new ArrayList<>();
        try {
            nodes.addAll(PlanChangeTest.startNodes(store, url, clock));
            Api admin = nodes.getFirst().admin();
            PlanSlaTest.service(admin, "api");
            Reply plan = admin.post(
                    "/admin/plans",
                    Map.of(
                            "id", "pro",
                            "name", "Pro",
                            "allowance", 1001,
                            "period", "day",
                            "sla",
                                    Map.of(
                                            "services",
                                            List.of("api"),
                                            "tiers",
                                            List.of(
                                                    Map.of("below", 0.999, "creditPercent", 10),
                                                    Map.of("below", 0.99, "creditPercent", 25),
                                                    Map.of("below", 0.9, "creditPercent", 50)))));
            assertThat(plan.status()).as(plan.toString()).isEqualTo(201);
            String accountId = new Fixtures(admin).account("pro", 0);

            // Day 1: one hour down of 24 (uptime 0.958): below 0.999 and 0.99, so 25 % of 1001 = 250.
            status(admin, clock, T0.plusSeconds(3600), "major_outage");
            status(admin, clock, T0.plusSeconds(7200), "operational");
            // Day 2: up throughout. Day 3: a partial outage all day (0.7): 50 % = 500. Day 4: maintenance is up.
            status(admin, clock, T0.plus(DAY.multipliedBy(2)), "partial_outage");
            status(admin, clock, T0.plus(DAY.multipliedBy(3)), "under_maintenance");
            status(admin, clock, T0.plus(DAY.multipliedBy(4)), "operational");
            clock.set(T0.plus(DAY.multipliedBy(4)).plusSeconds(60));

            Waiting.until(
                    "the four ended days are measured", () -> measured(url).size() == 4);

            assertThat(measured(url))
                    .containsExactly(
                            "2026-03-01T00:00:00Z 25 250",
                            "2026-03-02T00:00:00Z 0 0",
                            "2026-03-03T00:00:00Z 50 500",
                            "2026-03-04T00:00:00Z 0 0");
            assertThat(slaCreditLines(url)).containsExactly(250L, 500L);
            assertThat(eventCount(url, "sla.credited")).isEqualTo(2);
            // Day 5's allowance and the two credits, which never expire.
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(1001 + 250 + 500);
            assertThat(LedgerAudit.mismatches(url)).isEmpty();

            // The caller sees its credits, newest first; day 5 so far: 12 h down of 12 h observed is 0 uptime.
            Api caller = nodes.getLast().caller(new Fixtures(admin).key(accountId));
            status(admin, clock, T0.plus(DAY.multipliedBy(4)).plusSeconds(3600), "major_outage");
            clock.set(T0.plus(DAY.multipliedBy(4)).plusSeconds(7200));
            JsonNode sla = caller.get("/api/tokens/sla").json();
            assertThat(sla.path("credits").findValuesAsText("amount")).containsExactly("500", "250");
            assertThat(sla.path("credits").get(0).path("periodStart").asText()).isEqualTo("2026-03-03T00:00:00Z");
            assertThat(sla.path("period").path("start").asText()).isEqualTo("2026-03-05T00:00:00Z");
            assertThat(sla.path("uptime").asDouble()).isCloseTo(0.5, within(1e-6));
            assertThat(sla.path("creditPercentIfEndedNow").asInt()).isEqualTo(50);
            JsonNode preview = admin.get("/admin/sla/preview?planId=pro").json();
            assertThat(preview.path("accounts").get(0).path("amount").asLong()).isEqualTo(500);
            assertThat(preview.path("total").asLong()).isEqualTo(500);
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    private static void status(Api admin, TestClock clock, Instant at, String status) {
        clock.set(at);
        Reply reply = admin.patch("/admin/services/api", Map.of("status", status));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
    }

    /** Each measured period: its start, credit percent and amount. */
    static List<String> measured(String url) {
        return rows(
                url,
                "SELECT period_start, credit_percent, amount FROM sla_periods ORDER BY period_start",
                rs -> Instant.ofEpochMilli(rs.getLong(1)) + " " + rs.getInt(2) + " " + rs.getLong(3));
    }

    static List<Long> slaCreditLines(String url) {
        return rows(
                url, "SELECT amount FROM ledger_entries WHERE kind = 'sla_credit' ORDER BY seq", rs -> rs.getLong(1));
    }

    static long eventCount(String url, String type) {
        return rows(url, "SELECT type FROM events", rs -> rs.getString(1)).stream()
                .filter(type::equals)
                .count();
    }

    interface Row<T> {
        T read(ResultSet rs) throws java.sql.SQLException;
    }

    static <T> List<T> rows(String url, String sql, Row<T> row) {
        try (Database database = LedgerAudit.open(url)) {
            return database.read(connection -> {
                List<T> rows = new ArrayList<>();
                try (PreparedStatement ps = connection.prepareStatement(sql);
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(row.read(rs));
                    }
                }
                return rows;
            });
        }
    }
}
