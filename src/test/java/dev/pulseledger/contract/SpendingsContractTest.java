package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CONTRACT §3: balance, plan, reading one spending and paging through all of them. */
class SpendingsContractTest extends ContractTest {
    @Test
    void theBalanceIsWholeTokens() {
        Fixtures.Caller caller = fixtures.caller(900);
        Reply reply = caller(caller).get("/api/tokens/balance");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.contentType()).startsWith("application/json");
        assertThat(reply.json().path("balance").isIntegralNumber()).isTrue();
        assertThat(reply.json().path("balance").asLong()).isEqualTo(900);
    }

    @Test
    void thePlanIsTheCallersCurrentPlan() {
        Fixtures.Caller caller = fixtures.caller(0);
        Reply free = caller(caller).get("/api/tokens/plan");
        assertThat(free.status()).isEqualTo(200);
        assertThat(free.json().path("id").asText()).isEqualTo("free");
        assertThat(free.json().path("name").asText()).isEqualTo("Free");
    }

    @Test
    void aSpendingReadsBackWithItsStatus() {
        Fixtures.Caller caller = fixtures.caller(1000);
        JsonNode spent = caller(caller).post("/api/tokens/spend/100").json();
        String path = "/api/tokens/spendings/" + spent.path("spendingId").asText();

        Reply active = caller(caller).get(path);
        assertThat(active.status()).isEqualTo(200);
        assertThat(active.json().path("spendingId")).isEqualTo(spent.path("spendingId"));
        assertThat(active.json().path("amount").asLong()).isEqualTo(100);
        assertThat(active.json().path("status").asText()).isEqualTo("active");
        assertThat(active.json().path("createdAt")).isEqualTo(spent.path("createdAt"));
        assertThat(active.json().has("revertedAt")).isTrue();
        assertThat(active.json().path("revertedAt").isNull()).isTrue();

        JsonNode reverted = caller(caller).post(path + "/revert").json();
        Reply after = caller(caller).get(path);
        assertThat(after.json().path("status").asText()).isEqualTo("reverted");
        assertThat(after.json().path("revertedAt").asText()).matches(RFC_3339_UTC);
        assertThat(after.json().path("revertedAt")).isEqualTo(reverted.path("revertedAt"));
    }

    @Test
    void anotherCallersSpendingOrNoneIs404SpendingNotFound() {
        Fixtures.Caller owner = fixtures.caller(1000);
        Fixtures.Caller stranger = fixtures.caller(1000);
        String id = spendingId(owner, 100);
        for (String path : List.of(
                "/api/tokens/spendings/" + id,
                "/api/tokens/spendings/sp_00000000000000000000000000",
                "/api/tokens/spendings/nope")) {
            assertProblem(caller(stranger).get(path), 404, "spending_not_found");
        }
    }

    @Test
    void theListIsNewestFirstTwentyByDefaultAndPagesThroughEverythingOnce() {
        Fixtures.Caller caller = fixtures.caller(1000);
        List<String> created = new ArrayList<>();
        for (int i = 1; i <= 25; i++) {
            created.add(spendingId(caller, i));
        }
        caller(caller).post("/api/tokens/spendings/" + created.get(3) + "/revert");
        List<String> newestFirst = created.reversed();

        Reply firstPage = caller(caller).get("/api/tokens/spendings");
        assertThat(firstPage.status()).isEqualTo(200);
        assertThat(ids(firstPage)).isEqualTo(newestFirst.subList(0, 20));
        assertThat(firstPage.json().path("nextCursor").asText()).isNotBlank();
        JsonNode newest = firstPage.json().path("data").get(0);
        assertThat(newest.path("amount").asLong()).isEqualTo(25);
        assertThat(newest.path("status").asText()).isEqualTo("active");
        assertThat(newest.path("createdAt").asText()).matches(RFC_3339_UTC);

        for (int limit : List.of(1, 7, 25, 100)) {
            List<String> seen = new ArrayList<>();
            String query = "?limit=" + limit;
            for (int page = 0; page < 30; page++) {
                Reply reply = caller(caller).get("/api/tokens/spendings" + query);
                assertThat(reply.json().path("data").size()).isLessThanOrEqualTo(limit);
                seen.addAll(ids(reply));
                JsonNode next = reply.json().path("nextCursor");
                assertThat(reply.json().has("nextCursor")).isTrue();
                if (next.isNull()) {
                    break;
                }
                query = "?limit=" + limit + "&cursor=" + next.asText();
            }
            assertThat(seen).as("limit %d", limit).isEqualTo(newestFirst);
        }
        assertThat(everyItem(caller(caller), "/api/tokens/spendings").stream()
                        .filter(s -> s.path("status").asText().equals("reverted"))
                        .map(s -> s.path("spendingId").asText()))
                .containsExactly(created.get(3));
    }

    @Test
    void aNewCallerHasAnEmptyList() {
        Reply reply = caller(fixtures.caller(0)).get("/api/tokens/spendings");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("data").isArray()).isTrue();
        assertThat(reply.json().path("data")).isEmpty();
        assertThat(reply.json().path("nextCursor").isNull()).isTrue();
    }

    @Test
    void aBadLimitOrCursorIs400NamingIt() {
        Fixtures.Caller caller = fixtures.caller(100);
        caller(caller).post("/api/tokens/spend/1");
        for (String limit : List.of("0", "101", "-1", "abc", "1.5", "", "99999999999")) {
            assertBadField(caller(caller).get("/api/tokens/spendings?limit=" + limit), "invalid_limit", "limit");
        }
        assertProblem(caller(caller).get("/api/tokens/spendings?limit=1&limit=2"), 400, "invalid_request");
        for (String cursor : List.of(
                "garbage!",
                "",
                encode("v1:abc"),
                encode("v1:-5"),
                encode("v1:0"),
                encode("v2:10"),
                encode("10"),
                "A".repeat(300))) {
            assertBadField(caller(caller).get("/api/tokens/spendings?cursor=" + cursor), "invalid_cursor", "cursor");
        }
    }

    @Test
    void oneCallersCursorShowsNothingOfAnother() {
        Fixtures.Caller owner = fixtures.caller(100);
        Fixtures.Caller stranger = fixtures.caller(100);
        caller(owner).post("/api/tokens/spend/1");
        caller(owner).post("/api/tokens/spend/2");
        String cursor = caller(owner)
                .get("/api/tokens/spendings?limit=1")
                .json()
                .path("nextCursor")
                .asText();
        Reply reply = caller(stranger).get("/api/tokens/spendings?cursor=" + cursor);
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("data")).isEmpty();
    }

    private static List<String> ids(Reply page) {
        return page.json()
                .path("data")
                .valueStream()
                .map(s -> s.path("spendingId").asText())
                .toList();
    }

    private static String encode(String cursor) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(cursor.getBytes(StandardCharsets.UTF_8));
    }
}
