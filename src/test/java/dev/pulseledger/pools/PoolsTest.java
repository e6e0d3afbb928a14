package dev.pulseledger.pools;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestClock;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Credit pools (CONTRACT §14) on both stores: a plan's pools renew with their own allowance and rollover,
 * credits name a pool, spends and holds draw only from theirs, and every refusal changes nothing.
 */
class PoolsTest {
    private static final Instant START = Instant.parse("2026-05-01T10:00:00Z");

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aSpendInANamedPoolNeverDrawsFromAnotherAndThePlainViewShowsEachPool(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Api admin = node.admin();
            Reply plan = admin.post(
                    "/admin/plans",
                    Map.of(
                            "id", "llm",
                            "name", "LLM",
                            "allowance", 1000,
                            "period", "day",
                            "pools", Map.of("images", Map.of("allowance", 500, "rollover", 100))));
            assertThat(plan.status()).as(plan.toString()).isEqualTo(201);
            assertThat(plan.json().at("/pools/images/allowance").asLong()).isEqualTo(500);
            String account = new Fixtures(node).account("llm", 0);
            Api api = node.caller(new Fixtures(node).key(account));
            Reply credit = admin.post(
                    "/admin/accounts/" + account + "/credits",
                    Map.of("amount", 300, "reason", "embeddings pack", "pool", "embeddings"));
            assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
            assertThat(credit.json().path("balance").asLong()).isEqualTo(300);

            Reply spent = api.post("/api/tokens/spend/200?pool=images");
            assertThat(spent.status()).as(spent.toString()).isEqualTo(201);
            assertThat(spent.json().path("balance").asLong()).isEqualTo(300);
            assertThat(spent.json().path("pool").asText()).isEqualTo("images");
            Reply tooMuch = api.post("/api/tokens/spend/301?pool=images");
            assertThat(tooMuch.status()).isEqualTo(402);
            assertThat(tooMuch.json().path("balance").asLong()).isEqualTo(300);
            assertThat(api.post("/api/tokens/spend/50").json().path("balance").asLong())
                    .isEqualTo(950);

            JsonNode balance = api.get("/api/tokens/balance").json();
            assertThat(balance.path("balance").asLong()).isEqualTo(950);
            assertThat(balance.at("/pools/images/balance").asLong()).isEqualTo(300);
            assertThat(balance.at("/pools/images/allowance/granted").asLong()).isEqualTo(500);
            assertThat(balance.at("/pools/images/allowance/remaining").asLong()).isEqualTo(300);
            assertThat(balance.at("/pools/embeddings/balance").asLong()).isEqualTo(300);
            assertThat(balance.at("/pools/embeddings/allowance").isNull()).isTrue();
            JsonNode images = api.get("/api/tokens/balance?pool=images").json();
            assertThat(images.path("balance").asLong()).isEqualTo(300);
            assertThat(images.has("pools")).isFalse();

            // A revert returns to the spending's pool; a spending carries it.
            String spendingId = spent.json().path("spendingId").asText();
            assertThat(api.get("/api/tokens/spendings/" + spendingId)
                            .json()
                            .path("pool")
                            .asText())
                    .isEqualTo("images");
            Reply reverted = api.post("/api/tokens/spendings/" + spendingId + "/revert", Map.of("amount", 50));
            assertThat(reverted.json().path("balance").asLong()).isEqualTo(350);

            // Usage per pool, and every pool's together.
            JsonNode imagesUsage =
                    api.get("/api/tokens/usage?pool=images").json().path("total");
            assertThat(imagesUsage.path("spent").asLong()).isEqualTo(200);
            assertThat(imagesUsage.path("reverted").asLong()).isEqualTo(50);
            assertThat(api.get("/api/tokens/usage").json().at("/total/spent").asLong())
                    .isEqualTo(250);
            assertThat(api.get("/api/tokens/usage?pool=video").code()).isEqualTo("pool_not_found");

            // The next day: images renews with 100 of its 350 rolled over (its rollover), default with none.
            clock.advance(Duration.ofDays(1));
            JsonNode renewed = api.get("/api/tokens/balance").json();
            assertThat(renewed.path("balance").asLong()).isEqualTo(1000);
            assertThat(renewed.at("/pools/images/balance").asLong()).isEqualTo(600);
            assertThat(renewed.at("/pools/embeddings/balance").asLong()).isEqualTo(300);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aHoldInAPoolDrawsOnlyFromItAndItsSettleAndExpiryReturnThere(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(5000);
            Api api = node.caller(caller.key());
            credit(node, caller.accountId(), "images", 1000);

            Reply held = api.post("/api/tokens/reservations", Map.of("amount", 800, "pool", "images"));
            assertThat(held.status()).as(held.toString()).isEqualTo(201);
            assertThat(held.json().path("balance").asLong()).isEqualTo(200);
            JsonNode balance = api.get("/api/tokens/balance").json();
            assertThat(balance.path("balance").asLong()).isEqualTo(5000);
            assertThat(balance.path("held").asLong()).isZero();
            assertThat(balance.at("/pools/images/held").asLong()).isEqualTo(800);
            Reply tooMuch = api.post("/api/tokens/reservations", Map.of("amount", 201, "pool", "images"));
            assertThat(tooMuch.status()).isEqualTo(402);

            String id = held.json().path("reservationId").asText();
            Reply settled = api.post("/api/tokens/reservations/" + id + "/settle", Map.of("amount", 300));
            assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
            assertThat(settled.json().path("balance").asLong()).isEqualTo(700);

            Reply second = api.post(
                    "/api/tokens/reservations", Map.of("amount", 700, "pool", "images", "expiresInSeconds", 60));
            assertThat(second.json().path("balance").asLong()).isZero();
            clock.advance(Duration.ofSeconds(61));
            JsonNode after = api.get("/api/tokens/balance?pool=images").json();
            assertThat(after.path("balance").asLong()).isEqualTo(700);
            assertThat(after.path("held").asLong()).isZero();
            assertThat(api.get("/api/tokens/balance").json().path("balance").asLong())
                    .isEqualTo(5000);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void anUnknownPoolABadNameOrASeventeenthPoolIsRefusedAndChangesNothing(TestStore store) {
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), new TestClock(START))) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            for (int i = 1; i <= 15; i++) {
                credit(node, caller.accountId(), "pool-" + i, 10);
            }
            JsonNode before = api.get("/api/tokens/balance").json();

            Reply unknown = api.post("/api/tokens/spend/5?pool=images");
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.code()).isEqualTo("pool_not_found");
            assertThat(api.get("/api/tokens/balance?pool=images").code()).isEqualTo("pool_not_found");
            assertThat(api.post("/api/tokens/reservations", Map.of("amount", 5, "pool", "images"))
                            .code())
                    .isEqualTo("pool_not_found");
            String tooLong = "p".repeat(33);
            assertThat(api.post("/api/tokens/spend/5?pool=" + tooLong).code()).isEqualTo("invalid_pool");
            assertThat(api.post("/api/tokens/spend/5?pool=Images").code()).isEqualTo("invalid_pool");
            Reply seventeenth = node.admin()
                    .post(
                            "/admin/accounts/" + caller.accountId() + "/credits",
                            Map.of("amount", 10, "pool", "one-too-many"));
            assertThat(seventeenth.status()).isEqualTo(422);
            assertThat(seventeenth.code()).isEqualTo("pool_limit_reached");
            assertThat(node.admin()
                            .post(
                                    "/admin/accounts/" + caller.accountId() + "/credits",
                                    Map.of("amount", 10, "pool", tooLong))
                            .code())
                    .isEqualTo("invalid_pool");

            assertThat(api.get("/api/tokens/balance").json()).isEqualTo(before);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    static void credit(TestNode node, String accountId, String pool, long amount) {
        Reply reply =
                node.admin().post("/admin/accounts/" + accountId + "/credits", Map.of("amount", amount, "pool", pool));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }
}
