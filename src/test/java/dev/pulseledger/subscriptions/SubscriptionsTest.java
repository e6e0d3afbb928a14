package dev.pulseledger.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.http.Json;
import dev.pulseledger.store.Database;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.Simultaneously;
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

/** CONTRACT §7 through the HTTP API of a real node on both stores, with the node's clock moved by the test. */
class SubscriptionsTest {
    private static final Instant JAN_31 = Instant.parse("2026-01-31T10:00:00Z");
    private static final Instant FEB_28 = Instant.parse("2026-02-28T10:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aPlanRenewsItsAllowanceAtThePeriodEndAndTheBalanceShowsItsBreakdown(TestStore store) {
        TestClock clock = new TestClock(JAN_31);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            createPlan(admin, Map.of("id", "pro", "name", "Pro", "allowance", 1000, "rollover", 100));
            Fixtures fixtures = new Fixtures(node);
            String accountId = fixtures.account("pro", 50);
            Api caller = node.caller(fixtures.key(accountId));

            assertThat(caller.get("/api/tokens/balance").json())
                    .isEqualTo(
                            json(
                                    "{\"balance\":1050,\"allowance\":{\"granted\":1000,\"remaining\":1000,"
                                            + "\"periodStart\":\"2026-01-31T10:00:00Z\",\"periodEnd\":\"2026-02-28T10:00:00Z\"},"
                                            + "\"credits\":50,\"held\":0,\"nextExpiry\":{\"amount\":1000,\"at\":\"2026-02-28T10:00:00Z\"}}"));
            JsonNode plan = caller.get("/api/tokens/plan").json();
            assertThat(plan.path("allowance").asLong()).isEqualTo(1000);
            assertThat(plan.path("period").asText()).isEqualTo("month");
            assertThat(plan.path("currentPeriod").path("end").asText()).isEqualTo("2026-02-28T10:00:00Z");
            assertThat(caller.post("/api/tokens/spend/300").status()).isEqualTo(201);

            clock.set(FEB_28);
            JsonNode renewed = caller.get("/api/tokens/balance").json();

            assertThat(renewed.path("balance").asLong()).isEqualTo(1150); // 100 rolled over + 1000 + 50 credits
            assertThat(renewed.path("allowance").path("remaining").asLong()).isEqualTo(1100);
            assertThat(renewed.path("allowance").path("periodEnd").asText()).isEqualTo("2026-03-31T10:00:00Z");
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("currentPeriod")
                            .path("start")
                            .asText())
                    .isEqualTo("2026-02-28T10:00:00Z");
            assertThat(ledgerKinds(admin, accountId))
                    .containsExactly("allowance", "expire", "spend", "credit", "allowance");
            assertThat(eventTypes(node.databaseUrl())).containsExactly("allowance.renewed");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anExpiringCreditExpiresAtItsInstantWithoutAnyTraffic(TestStore store) {
        TestClock clock = new TestClock(JAN_31);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            String accountId = new Fixtures(node).account(10);
            Reply credit = admin.post(
                    "/admin/accounts/" + accountId + "/credits",
                    Map.of("amount", 500, "reason", "trial", "expiresAt", "2026-02-01T00:00:00Z"));
            assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
            assertThat(credit.json().path("expiresAt").asText()).isEqualTo("2026-02-01T00:00:00Z");
            assertThat(admin.post(
                                    "/admin/accounts/" + accountId + "/credits",
                                    Map.of("amount", 5, "expiresAt", "2026-01-01T00:00:00Z"))
                            .status())
                    .isEqualTo(400);

            clock.set(Instant.parse("2026-02-01T00:00:00Z"));

            Waiting.until(
                    "the sweep expires the credit",
                    () -> eventTypes(node.databaseUrl()).contains("credits.expired"));
            assertThat(admin.get("/admin/accounts/" + accountId)
                            .json()
                            .path("balance")
                            .asLong())
                    .isEqualTo(10);
            assertThat(ledgerKinds(admin, accountId)).first().isEqualTo("expire");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aPlanChangeStartsANewPeriodAtOnce(TestStore store) {
        TestClock clock = new TestClock(JAN_31);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            createPlan(admin, Map.of("id", "pro", "name", "Pro", "allowance", 1000, "rollover", 1000));
            createPlan(admin, Map.of("id", "daily", "name", "Daily", "allowance", 10, "period", "day"));
            String accountId = new Fixtures(node).account("pro", 0);
            clock.set(Instant.parse("2026-02-10T12:00:00Z"));

            Reply changed = admin.put("/admin/accounts/" + accountId + "/plan", Map.of("planId", "daily"));

            assertThat(changed.status()).as(changed.toString()).isEqualTo(200);
            assertThat(changed.json().path("balance").asLong()).isEqualTo(10);
            assertThat(changed.json().path("currentPeriod").path("start").asText())
                    .isEqualTo("2026-02-10T12:00:00Z");
            assertThat(changed.json().path("currentPeriod").path("end").asText())
                    .isEqualTo("2026-02-11T12:00:00Z");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    /** Three nodes and their sweeps race for the renewals of many accounts at one period end. */
    @ParameterizedTest
    @EnumSource(TestStore.class)
    void threeNodesAndTheSweepRenewEachAccountOnceAtThePeriodEnd(TestStore store) {
        String url = store.newDatabaseUrl();
        TestClock clock = new TestClock(JAN_31);
        List<TestNode> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(TestNode.start(url, clock));
            }
            Api admin = nodes.getFirst().admin();
            createPlan(admin, Map.of("id", "daily", "name", "Daily", "allowance", 100, "period", "day"));
            Fixtures fixtures = new Fixtures(admin);
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                keys.add(fixtures.key(fixtures.account("daily", 0)));
            }

            clock.set(JAN_31.plus(Duration.ofDays(1)));
            Simultaneously.run(12, i -> {
                for (TestNode node : nodes) {
                    node.caller(keys.get(i)).get("/api/tokens/balance");
                    node.caller(keys.get(i)).post("/api/tokens/spend/1");
                }
                return null;
            });
            Waiting.until("every account renewed", () -> countEvents(url, "allowance.renewed") >= keys.size());

            assertThat(countEvents(url, "allowance.renewed")).isEqualTo(keys.size());
            for (String key : keys) {
                assertThat(nodes.get(2)
                                .caller(key)
                                .get("/api/tokens/balance")
                                .json()
                                .path("balance")
                                .asLong())
                        .isEqualTo(100 - 3);
            }
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        } finally {
            nodes.forEach(TestNode::close);
        }
    }

    private static void createPlan(Api admin, Map<String, Object> plan) {
        Reply reply = admin.post("/admin/plans", plan);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }

    private static List<String> ledgerKinds(Api admin, String accountId) {
        return admin.get("/admin/accounts/" + accountId + "/ledger")
                .json()
                .get("data")
                .findValuesAsText("kind");
    }

    private static List<String> eventTypes(String databaseUrl) {
        try (Database database = LedgerAudit.open(databaseUrl)) {
            return database.read(connection -> {
                List<String> types = new ArrayList<>();
                try (PreparedStatement ps = connection.prepareStatement("SELECT type FROM events ORDER BY seq");
                        ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        types.add(rs.getString(1));
                    }
                }
                return types;
            });
        }
    }

    private static long countEvents(String databaseUrl, String type) {
        return eventTypes(databaseUrl).stream().filter(type::equals).count();
    }

    private static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
