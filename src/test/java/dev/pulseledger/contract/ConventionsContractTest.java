package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** CONTRACT §1: problem documents, request ids, 404, 405, 400, 413, 415. */
class ConventionsContractTest extends ContractTest {
    private static final String SANE_REQUEST_ID = "[A-Za-z0-9._:-]{1,128}";

    @Test
    void aSaneRequestIdIsEchoedOnSuccessesAndErrors() {
        Fixtures.Caller caller = fixtures.caller(10);
        for (String id : List.of("req-123", "0b1f6c2e-9a6d-4c1e-8f1a-6a0e1f2b3c4d", "trace:42.a_b", "x".repeat(128))) {
            Map<String, String> headers = Map.of("X-Request-Id", id);
            assertThat(caller(caller)
                            .send("GET", "/api/tokens/balance", null, headers)
                            .header("X-Request-Id"))
                    .contains(id);
            assertThat(caller(caller).send("GET", "/api/nope", null, headers).header("X-Request-Id"))
                    .contains(id);
            assertThat(node.anonymous()
                            .send("GET", "/api/tokens/balance", null, headers)
                            .header("X-Request-Id"))
                    .contains(id);
        }
    }

    @Test
    void anInsaneRequestIdIsReplacedByANewSaneOne() {
        Fixtures.Caller caller = fixtures.caller(10);
        for (String id : List.of("has space", "<script>alert(1)</script>", "x".repeat(129), "a/b", "semi;colon")) {
            Reply reply = caller(caller).send("GET", "/api/tokens/balance", null, Map.of("X-Request-Id", id));
            assertThat(reply.status()).isEqualTo(200);
            assertThat(reply.header("X-Request-Id"))
                    .hasValueSatisfying(
                            echoed -> assertThat(echoed).isNotEqualTo(id).matches(SANE_REQUEST_ID));
        }
    }

    @Test
    void everyResponseWithoutARequestIdGetsAFreshOne() {
        Fixtures.Caller caller = fixtures.caller(10);
        Set<String> ids = new HashSet<>();
        for (Reply reply : List.of(
                caller(caller).get("/api/tokens/balance"),
                caller(caller).get("/api/tokens/balance"),
                caller(caller).post("/api/tokens/spend/0"),
                node.anonymous().get("/api/pulse"),
                node.anonymous().get("/health/live"),
                admin().get("/nope"))) {
            String id = reply.header("X-Request-Id").orElseThrow(() -> new AssertionError(reply.toString()));
            assertThat(id).matches(SANE_REQUEST_ID);
            ids.add(id);
        }
        assertThat(ids).hasSize(6);
    }

    @Test
    void anUnknownPathIs404NotFound() {
        Fixtures.Caller caller = fixtures.caller(10);
        for (String path : List.of(
                "/nope",
                "/api/nope",
                "/admin/nope",
                "/api/tokens/spend/100/more",
                "/api/tokens",
                "/admin/plans/free/x")) {
            assertProblem(caller(caller).get(path), 404, "not_found");
            assertProblem(admin().post(path, Map.of()), 404, "not_found");
            assertProblem(node.anonymous().delete(path), 404, "not_found");
        }
    }

    @Test
    void aKnownPathWithTheWrongMethodIs405WithAllow() {
        Fixtures.Caller caller = fixtures.caller(10);
        Map<String, String> allowByPath = Map.of(
                "/api/tokens/balance", "GET",
                "/api/pulse", "GET",
                "/api/tokens/spend/100", "POST",
                "/api/tokens/spendings/sp_x/revert", "POST",
                "/admin/keys/key_x", "DELETE",
                "/admin/accounts", "POST");
        allowByPath.forEach((path, allowed) -> {
            String wrong = allowed.equals("POST") ? "PUT" : "PATCH";
            Reply reply = caller(caller).send(wrong, path, null, Map.of());
            assertProblem(reply, 405, "method_not_allowed");
            assertThat(reply.header("Allow"))
                    .as(path)
                    .hasValueSatisfying(allow ->
                            assertThat(allow.split(",\\s*")).contains(allowed).doesNotContain(wrong));
        });
        assertThat(caller(caller).get("/api/tokens/balance").status()).isEqualTo(200);
        assertThat(balance(caller)).isEqualTo(10);
    }

    @Test
    void malformedJsonIs400AndChangesNothing() {
        Set<String> before = accountIds();
        for (String body : List.of(
                "{\"name\":",
                "not json",
                "[]",
                "\"text\"",
                "{\"name\":\"a\"} trailing",
                "{\"name\":\"a\",\"name\":\"b\"}")) {
            assertProblem(admin().post("/admin/accounts", body), 400, "invalid_json");
        }
        assertProblem(
                admin().send("POST", "/admin/accounts", "", Map.of("Content-Type", "application/json")),
                400,
                "invalid_json");
        assertThat(accountIds()).isEqualTo(before);
    }

    @Test
    void aBadFieldIs400NamingTheFieldAndChangesNothing() {
        Set<String> before = accountIds();
        assertBadField(admin().post("/admin/accounts", Map.of("name", 5)), "invalid_request", "name");
        assertBadField(admin().post("/admin/accounts", Map.of()), "invalid_request", "name");
        assertBadField(admin().post("/admin/accounts", Map.of("name", " ")), "invalid_request", "name");
        assertBadField(
                admin().post("/admin/accounts", Map.of("name", "a", "balance", "lots")), "invalid_request", "balance");
        assertBadField(
                admin().post("/admin/accounts", Map.of("name", "a", "balance", -1)), "invalid_request", "balance");
        assertBadField(
                admin().post("/admin/accounts", Map.of("name", "a", "balance", 1.5)), "invalid_request", "balance");
        assertBadField(
                admin().post("/admin/accounts", Map.of("name", "a", "colour", "red")), "invalid_request", "colour");
        assertBadField(
                admin().post("/admin/accounts", Map.of("name", "a", "planId", "Not A Slug")),
                "invalid_request",
                "planId");
        assertThat(accountIds()).isEqualTo(before);
    }

    @Test
    void aBodyAboveTheLimitIs413AndChangesNothing() {
        Set<String> before = accountIds();
        for (int size : List.of(70 * 1024, 200 * 1024, 1000 * 1024)) {
            String huge = "{\"name\":\"" + "a".repeat(size) + "\"}";
            for (int attempt = 0; attempt < 3; attempt++) {
                Reply reply = admin().send(
                                "POST",
                                "/admin/accounts",
                                huge,
                                Map.of("Content-Type", "application/json", "X-Request-Id", "big-" + size));
                assertProblem(reply, 413, "payload_too_large");
                assertThat(reply.header("X-Request-Id")).contains("big-" + size);
            }
            String chunked = RawHttp.exchange(
                    node,
                    adminPost("Transfer-Encoding: chunked") + Integer.toHexString(huge.length()) + "\r\n" + huge
                            + "\r\n0\r\n\r\n");
            assertThat(chunked).startsWith("HTTP/1.1 413").contains("\"code\":\"payload_too_large\"");
        }
        String announced = RawHttp.exchange(node, adminPost("Content-Length: 1000000000"));
        assertThat(announced).startsWith("HTTP/1.1 413").contains("\"code\":\"payload_too_large\"");
        assertThat(accountIds()).isEqualTo(before);
        assertThat(admin().get("/admin/plans").status()).isEqualTo(200);
    }

    private static String adminPost(String framing) {
        return "POST /admin/accounts HTTP/1.1\r\nHost: x\r\nX-ApiKey: " + TestNode.ADMIN_KEY
                + "\r\nContent-Type: application/json\r\n" + framing + "\r\nConnection: close\r\n\r\n";
    }

    @Test
    void anUnsupportedMediaTypeIs415AndChangesNothing() {
        Set<String> before = accountIds();
        String body = "{\"name\":\"a\"}";
        for (String type : List.of("text/plain", "application/xml", "application/x-www-form-urlencoded")) {
            assertProblem(
                    admin().send("POST", "/admin/accounts", body, Map.of("Content-Type", type)),
                    415,
                    "unsupported_media_type");
        }
        assertThat(accountIds()).isEqualTo(before);
        assertThat(admin().send(
                                "POST",
                                "/admin/accounts",
                                body,
                                Map.of("Content-Type", "application/json; charset=utf-8"))
                        .status())
                .isEqualTo(201);
    }

    @Test
    void requestsThatAreNotHttpStillGetAProblemDocument() {
        for (String request : List.of(
                "GARBAGE\r\n\r\n",
                "GET /api/pulse HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n",
                "GET /api/pulse HTTP/1.1\r\nHost: x\r\nX-Long: " + "a".repeat(64 * 1024) + "\r\n\r\n")) {
            String response = RawHttp.exchange(node, request);
            assertThat(response).startsWith("HTTP/1.1 4");
            assertThat(response.toLowerCase(Locale.ROOT))
                    .contains("content-type: application/problem+json")
                    .contains("x-request-id: ");
            assertThat(response).contains("\"code\":").doesNotContain("<html", "Exception");
        }
        assertThat(admin().get("/admin/plans").status()).isEqualTo(200);
    }

    @Test
    void hostileIdsAndCursorsGetA4xxNeverA500() {
        Fixtures.Caller caller = fixtures.caller(100);
        AccountState before = state(caller.accountId());
        String nul = Base64.getUrlEncoder().withoutPadding().encodeToString("v1:\0".getBytes(StandardCharsets.UTF_8));
        String high = Base64.getUrlEncoder().withoutPadding().encodeToString(new byte[] {'v', '1', ':', (byte) 0xff});
        List<String> ids =
                List.of("%00", "acct_%00", "%C3%28", "%ED%A0%80", "x".repeat(4000), "%F0%9F%92%A9", "..%2F..");
        List<Reply> replies = new ArrayList<>();
        for (String id : ids) {
            replies.add(admin().get("/admin/accounts/" + id));
            replies.add(admin().get("/admin/accounts/" + id + "/ledger"));
            replies.add(admin().get("/admin/accounts/" + id + "/keys"));
            replies.add(admin().post("/admin/accounts/" + id + "/keys", Map.of()));
            replies.add(admin().post("/admin/accounts/" + id + "/credits", Map.of("amount", 1)));
            replies.add(admin().put("/admin/accounts/" + id + "/plan", Map.of("planId", "free")));
            replies.add(admin().put("/admin/accounts/" + id + "/status", Map.of("status", "active")));
            replies.add(admin().get("/admin/plans/" + id));
            replies.add(admin().put("/admin/plans/" + id, Map.of("name", "x")));
            replies.add(admin().delete("/admin/keys/" + id));
            replies.add(admin().get("/admin/services/" + id));
            replies.add(caller(caller).get("/api/tokens/spendings/" + id));
            replies.add(caller(caller).post("/api/tokens/spendings/" + id + "/revert"));
        }
        for (String cursor : List.of(nul, high)) {
            replies.add(admin().get("/admin/accounts?cursor=" + cursor));
            replies.add(admin().get("/admin/accounts/" + caller.accountId() + "/ledger?cursor=" + cursor));
            replies.add(caller(caller).get("/api/tokens/spendings?cursor=" + cursor));
        }
        assertThat(replies).allSatisfy(reply -> {
            assertThat(reply.status()).as(reply.toString()).isBetween(200, 499);
            if (reply.status() >= 400) {
                assertProblem(reply, reply.status(), reply.code());
            }
        });
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void hostileBodiesGetA4xxNeverA500() {
        String accountId = fixtures.account(100);
        AccountState before = state(accountId);
        String keys = "/admin/accounts/" + accountId + "/keys";
        String credits = "/admin/accounts/" + accountId + "/credits";
        List<Reply> replies = List.of(
                admin().post(credits, "{\"amount\":" + "[".repeat(100) + "]".repeat(100) + "}"),
                admin().post(credits, "{\"amount\":1" + "0".repeat(1000) + "}"),
                admin().post(credits, "{\"amount\":1e400}"),
                admin().post(credits, "{\"amount\":1,\"reason\":\"\\u0000\"}"),
                admin().post(credits, "{\"amount\":1,\"reason\":\"" + "r".repeat(100_000) + "\"}"),
                admin().post(keys, Map.of("expiresAt", "+1000000000-12-31T23:59:59Z")),
                admin().post(keys, Map.of("expiresAt", "2026-02-30T00:00:00Z")),
                admin().post(keys, Map.of("name", "\u0000")),
                admin().post("/admin/plans", Map.of("id", "p", "name", "p", "monthlyTokens", Long.MAX_VALUE)),
                admin().put("/admin/services/s", Map.of("name", "s", "position", Long.MAX_VALUE)),
                admin().post("/admin/accounts", Map.of("name", "a", "balance", Long.MAX_VALUE)));
        assertThat(replies).allSatisfy(reply -> {
            assertThat(reply.status()).as(reply.toString()).isBetween(400, 499);
            assertProblem(reply, reply.status(), reply.code());
        });
        assertThat(state(accountId)).isEqualTo(before);
        assertThat(admin().get(keys).json().path("data")).isEmpty();
    }

    @Test
    void successesAreJsonWithCamelCaseFields() {
        Fixtures.Caller caller = fixtures.caller(100);
        Reply spent = caller(caller).post("/api/tokens/spend/1");
        assertThat(spent.contentType()).startsWith("application/json");
        assertThat(spent.json().fieldNames()).toIterable().contains("spendingId", "createdAt");
        assertThat(spent.json().path("createdAt").asText()).matches(RFC_3339_UTC);
    }

    /** Every account id, to show that a refused request created none. */
    private Set<String> accountIds() {
        return everyItem(admin(), "/admin/accounts").stream()
                .map(account -> account.path("id").asText())
                .collect(Collectors.toSet());
    }
}
