package dev.pulseledger.reservations;

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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every status and code of CONTRACT §8 (reservations and partial reverts) on both stores, with the
 * account's state read before and after each refused request to prove it changed nothing.
 */
class ReservationsTest {
    private static final Instant START = Instant.parse("2026-05-01T10:00:00Z");
    private static final String RESERVATIONS = "/api/tokens/reservations";

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aReservationHoldsTokensAndASettleSpendsTheRealAmountAndReturnsTheRest(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(10_000);
            Api api = node.caller(caller.key());

            Reply reserved = api.post(RESERVATIONS, Map.of("amount", 4000, "expiresInSeconds", 120));
            assertThat(reserved.status()).as(reserved.toString()).isEqualTo(201);
            String id = reserved.json().get("reservationId").asText();
            assertThat(id).matches("rsv_[0-9a-z]{26}");
            assertThat(reserved.header("Location")).contains(RESERVATIONS + "/" + id);
            assertThat(reserved.json().get("status").asText()).isEqualTo("held");
            assertThat(reserved.json().get("amount").asLong()).isEqualTo(4000);
            assertThat(reserved.json().get("balance").asLong()).isEqualTo(6000);
            assertThat(reserved.json().get("expiresAt").asText()).isEqualTo("2026-05-01T10:02:00Z");
            JsonNode balance = api.get("/api/tokens/balance").json();
            assertThat(balance.get("balance").asLong()).isEqualTo(6000);
            assertThat(balance.get("held").asLong()).isEqualTo(4000);

            Reply settled = api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 1234));
            assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
            assertThat(settled.json().get("status").asText()).isEqualTo("settled");
            assertThat(settled.json().get("settledAmount").asLong()).isEqualTo(1234);
            assertThat(settled.json().get("balance").asLong()).isEqualTo(10_000 - 1234);
            String spendingId = settled.json().get("spendingId").asText();
            assertThat(api.get("/api/tokens/balance").json().get("held").asLong())
                    .isZero();
            Reply spending = api.get("/api/tokens/spendings/" + spendingId);
            assertThat(spending.json().get("amount").asLong()).isEqualTo(1234);
            assertThat(spending.json().get("status").asText()).isEqualTo("active");

            // The same settle again: the same body; another amount: 409; a release: 409.
            assertThat(api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 1234))
                            .json())
                    .isEqualTo(settled.json());
            JsonNode before = state(node, caller);
            Reply other = api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 1000));
            assertThat(other.status()).isEqualTo(409);
            assertThat(other.code()).isEqualTo("reservation_already_settled");
            assertThat(other.json().get("settledAmount").asLong()).isEqualTo(1234);
            Reply release = api.post(RESERVATIONS + "/" + id + "/release");
            assertThat(release.status()).isEqualTo(409);
            assertThat(release.code()).isEqualTo("reservation_not_held");
            assertThat(release.json().get("reservationStatus").asText()).isEqualTo("settled");
            assertThat(state(node, caller)).isEqualTo(before);

            // The settle's spending is revertible like any other.
            Reply reverted = api.post("/api/tokens/spendings/" + spendingId + "/revert");
            assertThat(reverted.status()).isEqualTo(200);
            assertThat(reverted.json().get("balance").asLong()).isEqualTo(10_000);
            assertThat(ledgerKinds(node, caller.accountId()))
                    .containsExactly("revert", "spend", "release", "hold", "credit");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void settlingNothingAndReleasingReturnEverythingAndRepeatSafely(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(500);
            Api api = node.caller(caller.key());

            String zero = reserve(api, 200);
            Reply settledZero = api.post(RESERVATIONS + "/" + zero + "/settle", Map.of("amount", 0));
            assertThat(settledZero.status()).isEqualTo(200);
            assertThat(settledZero.json().get("spendingId").isNull()).isTrue();
            assertThat(settledZero.json().get("balance").asLong()).isEqualTo(500);

            String whole = reserve(api, 300);
            Reply settledWhole = api.post(RESERVATIONS + "/" + whole + "/settle");
            assertThat(settledWhole.status()).isEqualTo(200);
            assertThat(settledWhole.json().get("settledAmount").asLong()).isEqualTo(300);
            assertThat(settledWhole.json().get("balance").asLong()).isEqualTo(200);

            String released = reserve(api, 150);
            Reply first = api.post(RESERVATIONS + "/" + released + "/release");
            assertThat(first.status()).isEqualTo(200);
            assertThat(first.json().get("status").asText()).isEqualTo("released");
            assertThat(first.json().get("balance").asLong()).isEqualTo(200);
            assertThat(api.post(RESERVATIONS + "/" + released + "/release").json())
                    .isEqualTo(first.json());
            Reply settleAfter = api.post(RESERVATIONS + "/" + released + "/settle", Map.of("amount", 1));
            assertThat(settleAfter.status()).isEqualTo(409);
            assertThat(settleAfter.code()).isEqualTo("reservation_not_held");

            assertThat(api.get(RESERVATIONS + "/" + released)
                            .json()
                            .get("status")
                            .asText())
                    .isEqualTo("released");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void everyRefusalHasItsCodeAndChangesNothing(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures fixtures = new Fixtures(node);
            Fixtures.Caller caller = fixtures.caller(1000);
            Fixtures.Caller stranger = fixtures.caller(1000);
            Api api = node.caller(caller.key());
            String held = reserve(api, 300);
            String strangers = reserve(node.caller(stranger.key()), 10);
            JsonNode before = state(node, caller);

            assertRefused(api.post(RESERVATIONS, Map.of("amount", 701)), 402, "insufficient_balance");
            assertThat(api.post(RESERVATIONS, Map.of("amount", 701))
                            .json()
                            .get("required")
                            .asLong())
                    .isEqualTo(701);
            for (Object amount : List.of(0, -5, 1.5, "7", 1_000_000_001L)) {
                assertRefused(api.post(RESERVATIONS, Map.of("amount", amount)), 400, "invalid_request");
            }
            assertRefused(api.post(RESERVATIONS, Map.of("expiresInSeconds", 10)), 400, "invalid_request");
            for (long seconds : List.of(0L, 86_401L)) {
                assertRefused(
                        api.post(RESERVATIONS, Map.of("amount", 1, "expiresInSeconds", seconds)),
                        400,
                        "invalid_request");
            }
            assertRefused(api.post(RESERVATIONS, Map.of("amount", 1, "colour", "red")), 400, "invalid_request");
            assertRefused(api.post(RESERVATIONS), 415, "unsupported_media_type");
            assertRefused(
                    api.post(RESERVATIONS + "/" + held + "/settle", Map.of("amount", 301)), 422, "settle_exceeds_held");
            assertRefused(
                    api.post(RESERVATIONS + "/" + held + "/settle", Map.of("amount", -1)), 400, "invalid_request");
            for (String path : List.of(
                    RESERVATIONS + "/" + strangers,
                    RESERVATIONS + "/rsv_01aaaaaaaaaaaaaaaaaaaaaaaa",
                    RESERVATIONS + "/not-an-id")) {
                assertRefused(api.get(path), 404, "reservation_not_found");
                assertRefused(api.post(path + "/settle", Map.of("amount", 1)), 404, "reservation_not_found");
                assertRefused(api.post(path + "/release"), 404, "reservation_not_found");
            }
            assertRefused(api.get(RESERVATIONS + "?status=open"), 400, "invalid_status");
            assertRefused(api.get(RESERVATIONS + "?limit=0"), 400, "invalid_limit");
            assertRefused(api.get(RESERVATIONS + "?cursor=zzz"), 400, "invalid_cursor");
            assertRefused(node.anonymous().post(RESERVATIONS, Map.of("amount", 1)), 401, "missing_api_key");
            assertRefused(node.admin().post(RESERVATIONS, Map.of("amount", 1)), 403, "forbidden");
            assertRefused(
                    node.admin().get("/admin/accounts/acct_01aaaaaaaaaaaaaaaaaaaaaaaa/reservations"),
                    404,
                    "account_not_found");

            Map<String, String> key = Map.of("Idempotency-Key", "rsv-key-1");
            Reply keyed = api.send("POST", RESERVATIONS, Map.of("amount", 50), key);
            assertThat(keyed.status()).isEqualTo(201);
            JsonNode afterKeyed = state(node, caller);
            Reply replayed = api.send("POST", RESERVATIONS, Map.of("amount", 50), key);
            assertThat(replayed.status()).isEqualTo(201);
            assertThat(replayed.header("Idempotent-Replayed")).contains("true");
            assertThat(replayed.json()).isEqualTo(keyed.json());
            assertRefused(api.send("POST", RESERVATIONS, Map.of("amount", 51), key), 422, "idempotency_key_reused");
            assertRefused(
                    api.send("POST", RESERVATIONS, Map.of("amount", 50, "expiresInSeconds", 60), key),
                    422,
                    "idempotency_key_reused");
            assertRefused(api.send("POST", "/api/tokens/spend/50", null, key), 422, "idempotency_key_reused");
            assertThat(state(node, caller)).isEqualTo(afterKeyed);
            assertThat(before).isNotEqualTo(afterKeyed);
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void aReservationNotSettledByItsExpiryIsReleasedOnceWithAnEvent(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            Reply reserved = api.post(RESERVATIONS, Map.of("amount", 400, "expiresInSeconds", 30));
            String id = reserved.json().get("reservationId").asText();

            clock.advance(Duration.ofSeconds(29));
            assertThat(api.get(RESERVATIONS + "/" + id).json().get("status").asText())
                    .isEqualTo("held");
            clock.advance(Duration.ofSeconds(1));
            dev.pulseledger.support.Waiting.until(
                    "the sweep expires the reservation", () -> countEvents(node, "reservation.expired") == 1);

            Reply read = api.get(RESERVATIONS + "/" + id);
            assertThat(read.json().get("status").asText()).isEqualTo("expired");
            assertThat(read.json().get("endedAt").asText()).isEqualTo("2026-05-01T10:00:30Z");
            JsonNode balance = api.get("/api/tokens/balance").json();
            assertThat(balance.get("balance").asLong()).isEqualTo(1000);
            assertThat(balance.get("held").asLong()).isZero();
            assertRefused(
                    api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 1)), 409, "reservation_not_held");
            assertRefused(api.post(RESERVATIONS + "/" + id + "/release"), 409, "reservation_not_held");
            assertThat(api.get(RESERVATIONS + "?status=expired").json().get("data"))
                    .hasSize(1);
            assertThat(api.get(RESERVATIONS + "?status=held").json().get("data"))
                    .isEmpty();
            assertThat(countEvents(node, "reservation.expired")).isEqualTo(1);
            assertThat(ledgerKinds(node, caller.accountId())).containsExactly("release", "hold", "credit");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void heldTokensReturningToAnExpiredGrantExpireAtOnce(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(0);
            Reply credit = node.admin()
                    .post(
                            "/admin/accounts/" + caller.accountId() + "/credits",
                            Map.of("amount", 100, "reason", "trial", "expiresAt", "2026-05-01T10:01:00Z"));
            assertThat(credit.status()).as(credit.toString()).isEqualTo(201);
            Api api = node.caller(caller.key());
            String id = reserve(api, 100);

            clock.advance(Duration.ofMinutes(2));
            Reply settled = api.post(RESERVATIONS + "/" + id + "/settle", Map.of("amount", 30));

            assertThat(settled.status()).as(settled.toString()).isEqualTo(200);
            assertThat(settled.json().get("balance").asLong()).isZero();
            assertThat(api.get("/api/tokens/balance").json().get("balance").asLong())
                    .isZero();
            assertThat(ledgerKinds(node, caller.accountId()))
                    .containsExactly("expire", "spend", "release", "hold", "credit");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void listsArePagedNewestFirstAndFilteredByStatusForCallerAndOperator(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            List<String> ids = new java.util.ArrayList<>();
            for (int i = 0; i < 5; i++) {
                ids.add(reserve(api, 10 + i));
            }
            api.post(RESERVATIONS + "/" + ids.get(1) + "/release");

            Reply first = api.get(RESERVATIONS + "?limit=2");
            assertThat(first.json().get("data").findValuesAsText("reservationId"))
                    .containsExactly(ids.get(4), ids.get(3));
            Reply second = api.get(RESERVATIONS + "?limit=2&cursor="
                    + first.json().get("nextCursor").asText());
            assertThat(second.json().get("data").findValuesAsText("reservationId"))
                    .containsExactly(ids.get(2), ids.get(1));
            assertThat(api.get(RESERVATIONS + "?status=held").json().get("data").findValuesAsText("reservationId"))
                    .containsExactly(ids.get(4), ids.get(3), ids.get(2), ids.get(0));
            Reply operator =
                    node.admin().get("/admin/accounts/" + caller.accountId() + "/reservations?status=released");
            assertThat(operator.status()).isEqualTo(200);
            assertThat(operator.json().get("data").findValuesAsText("reservationId"))
                    .containsExactly(ids.get(1));
            assertThat(api.get("/api/tokens/balance").json().get("held").asLong())
                    .isEqualTo(10 + 12 + 13 + 14);
        }
    }

    @ParameterizedTest
    @EnumSource(TestStore.class)
    void partialRevertsRefundPartsOnceEachAndNeverMoreThanTheSpending(TestStore store) {
        TestClock clock = new TestClock(START);
        try (TestNode node = TestNode.start(store.newDatabaseUrl(), clock)) {
            Fixtures.Caller caller = new Fixtures(node).caller(1000);
            Api api = node.caller(caller.key());
            String spendingId =
                    api.post("/api/tokens/spend/100").json().get("spendingId").asText();
            String revert = "/api/tokens/spendings/" + spendingId + "/revert";

            Map<String, String> key = Map.of("Idempotency-Key", "partial-1");
            Reply part = api.send("POST", revert, Map.of("amount", 40), key);
            assertThat(part.status()).as(part.toString()).isEqualTo(200);
            assertThat(part.json().get("status").asText()).isEqualTo("partially_reverted");
            assertThat(part.json().get("revertedAmount").asLong()).isEqualTo(40);
            assertThat(part.json().get("balance").asLong()).isEqualTo(940);
            Reply retried = api.send("POST", revert, Map.of("amount", 40), key);
            assertThat(retried.json()).isEqualTo(part.json());
            assertThat(retried.header("Idempotent-Replayed")).contains("true");
            JsonNode before = state(node, caller);
            assertRefused(api.send("POST", revert, Map.of("amount", 41), key), 422, "idempotency_key_reused");
            assertRefused(api.post(revert, Map.of("amount", 61)), 422, "revert_exceeds_spending");
            assertRefused(api.post(revert, Map.of("amount", 0)), 400, "invalid_request");
            assertRefused(api.post(revert, Map.of("amount", "x")), 400, "invalid_request");
            assertRefused(api.post(revert, Map.of("total", 1)), 400, "invalid_request");
            assertThat(state(node, caller)).isEqualTo(before);

            Reply second = api.post(revert, Map.of("amount", 35));
            assertThat(second.json().get("revertedAmount").asLong()).isEqualTo(75);
            assertThat(api.get("/api/tokens/spendings/" + spendingId)
                            .json()
                            .get("status")
                            .asText())
                    .isEqualTo("partially_reverted");
            Reply rest = api.post(revert);
            assertThat(rest.json().get("status").asText()).isEqualTo("reverted");
            assertThat(rest.json().get("revertedAmount").asLong()).isEqualTo(100);
            assertThat(rest.json().get("balance").asLong()).isEqualTo(1000);
            Reply again = api.post(revert);
            assertThat(again.status()).isEqualTo(200);
            assertThat(again.json().get("revertedAt")).isEqualTo(rest.json().get("revertedAt"));
            assertThat(again.json().get("balance").asLong()).isEqualTo(1000);
            assertRefused(api.post(revert, Map.of("amount", 1)), 422, "revert_exceeds_spending");
            assertThat(LedgerAudit.mismatches(node.databaseUrl())).isEmpty();
        }
    }

    static String reserve(Api api, long amount) {
        Reply reply = api.post(RESERVATIONS, Map.of("amount", amount));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("reservationId").asText();
    }

    private static void assertRefused(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.code()).as(reply.toString()).isEqualTo(code);
    }

    /** Everything a caller and an operator can read of the account. */
    private static JsonNode state(TestNode node, Fixtures.Caller caller) {
        Api api = node.caller(caller.key());
        Map<String, JsonNode> state = Map.of(
                "balance", api.get("/api/tokens/balance").json(),
                "reservations", api.get(RESERVATIONS + "?limit=100").json(),
                "spendings", api.get("/api/tokens/spendings?limit=100").json(),
                "ledger",
                        node.admin()
                                .get("/admin/accounts/" + caller.accountId() + "/ledger?limit=100")
                                .json());
        return dev.pulseledger.http.Json.mapper().valueToTree(state);
    }

    static List<String> ledgerKinds(TestNode node, String accountId) {
        return node.admin()
                .get("/admin/accounts/" + accountId + "/ledger?limit=100")
                .json()
                .get("data")
                .findValuesAsText("kind");
    }

    static long countEvents(TestNode node, String type) {
        try (dev.pulseledger.store.Database database = LedgerAudit.open(node.databaseUrl())) {
            return database.read(connection -> {
                try (java.sql.PreparedStatement ps =
                        connection.prepareStatement("SELECT COUNT(*) FROM events WHERE type = ?")) {
                    ps.setString(1, type);
                    try (java.sql.ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        return rs.getLong(1);
                    }
                }
            });
        }
    }
}
