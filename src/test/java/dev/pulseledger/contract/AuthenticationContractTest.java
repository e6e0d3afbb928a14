package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CONTRACT §2: who may call what, and how keys look and are kept. */
class AuthenticationContractTest extends ContractTest {
    private static final String CHALLENGE = "ApiKey header=\"X-ApiKey\"";
    /** Base 62 needs 22 characters for 128 bits. */
    private static final String CALLER_KEY = "pl_[0-9A-Za-z]{22,}";

    /** One request per caller endpoint. */
    private record Call(String method, String path, Object body) {
        Reply by(Api api) {
            return api.send(method, path, body, Map.of());
        }
    }

    private static final List<Call> CALLER_CALLS = List.of(
            new Call("GET", "/api/pulse", null),
            new Call("POST", "/api/tokens/spend/100", null),
            new Call("GET", "/api/tokens/balance", null),
            new Call("GET", "/api/tokens/plan", null),
            new Call("GET", "/api/tokens/spendings", null),
            new Call("GET", "/api/tokens/spendings/sp_01jf0000000000000000000000", null),
            new Call("POST", "/api/tokens/spendings/sp_01jf0000000000000000000000/revert", null));

    private static List<Call> operatorCalls(String accountId) {
        String account = "/admin/accounts/" + accountId;
        return List.of(
                new Call("POST", "/admin/plans", Map.of("id", "sneaky", "name", "Sneaky")),
                new Call("GET", "/admin/plans", null),
                new Call("PUT", "/admin/plans/free", Map.of("name", "Hijacked")),
                new Call("POST", "/admin/accounts", Map.of("name", "sneaky")),
                new Call("GET", "/admin/accounts", null),
                new Call("GET", account, null),
                new Call("PUT", account + "/plan", Map.of("planId", "free")),
                new Call("PUT", account + "/status", Map.of("status", "active")),
                new Call("POST", account + "/credits", Map.of("amount", 1_000_000)),
                new Call("POST", account + "/keys", Map.of()),
                new Call("GET", account + "/keys", null),
                new Call("DELETE", "/admin/keys/key_01jf0000000000000000000000", null),
                new Call("GET", account + "/ledger", null),
                new Call("PUT", "/admin/services/sneaky", Map.of("name", "Sneaky")),
                new Call("PATCH", "/admin/services/sneaky", Map.of("status", "major_outage")),
                new Call("DELETE", "/admin/services/sneaky", null),
                new Call("GET", "/admin/services", null));
    }

    private static List<Call> everyCall(String accountId) {
        List<Call> calls = new ArrayList<>(CALLER_CALLS);
        calls.addAll(operatorCalls(accountId));
        return calls;
    }

    @Test
    void withoutAKeyEveryEndpointIs401MissingApiKeyWithAChallenge() {
        Fixtures.Caller caller = fixtures.caller(1000);
        AccountState before = state(caller.accountId());
        List<Call> calls = everyCall(caller.accountId());
        for (Call call : calls) {
            Reply reply = call.by(node.anonymous());
            assertProblem(reply, 401, "missing_api_key");
            assertThat(reply.header("WWW-Authenticate")).as(call.toString()).contains(CHALLENGE);
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void anUnknownKeyIs401InvalidApiKeyWithAChallenge() {
        Fixtures.Caller caller = fixtures.caller(1000);
        AccountState before = state(caller.accountId());
        List<Call> calls = everyCall(caller.accountId());
        List<String> unknownKeys = List.of(
                "pl_0000000000000000000000000000000",
                caller.key() + "x",
                caller.key().toUpperCase(Locale.ROOT),
                "x".repeat(5000),
                "");
        for (String key : unknownKeys) {
            for (Call call : calls) {
                Reply reply = call.by(node.caller(key));
                assertProblem(reply, 401, "invalid_api_key");
                assertThat(reply.header("WWW-Authenticate")).as(call.toString()).contains(CHALLENGE);
            }
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void aRevokedKeyIs401InvalidApiKeyAtOnceWhileOtherKeysStillWork() {
        Fixtures.Caller caller = fixtures.caller(1000);
        String otherKey = fixtures.key(caller.accountId());
        assertThat(caller(caller).post("/api/tokens/spend/100").status()).isEqualTo(201);
        AccountState before = state(caller.accountId());

        assertThat(admin().delete("/admin/keys/" + keyId(caller.accountId(), caller.key()))
                        .status())
                .isEqualTo(204);

        List<Call> calls = everyCall(caller.accountId());
        for (Call call : calls) {
            assertProblem(call.by(caller(caller)), 401, "invalid_api_key");
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(node.caller(otherKey)
                        .get("/api/tokens/balance")
                        .json()
                        .path("balance")
                        .asLong())
                .isEqualTo(900);
    }

    @Test
    void anExpiredKeyIs401InvalidApiKey() {
        String accountId = fixtures.account(1000);
        Instant soon = Instant.now().plus(Duration.ofSeconds(2));
        String shortLived = keyExpiringAt(accountId, soon);
        String longLived = keyExpiringAt(accountId, Instant.now().plus(Duration.ofDays(1)));
        assertThat(node.caller(longLived).post("/api/tokens/spend/100").status())
                .isEqualTo(201);
        AccountState before = state(accountId);

        waitUntilAfter(soon);

        for (Call call : everyCall(accountId)) {
            assertProblem(call.by(node.caller(shortLived)), 401, "invalid_api_key");
        }
        assertThat(state(accountId)).isEqualTo(before);
        assertThat(node.caller(longLived).get("/api/tokens/balance").status()).isEqualTo(200);
    }

    @Test
    void aSuspendedAccountIs403AccountSuspendedUntilReactivated() {
        Fixtures.Caller caller = fixtures.caller(1000);
        Fixtures.Caller bystander = fixtures.caller(1000);
        String spendingId = spendingId(caller, 100);

        Reply suspended =
                admin().put("/admin/accounts/" + caller.accountId() + "/status", Map.of("status", "suspended"));
        assertThat(suspended.status()).as(suspended.toString()).isEqualTo(200);
        assertThat(suspended.json().path("status").asText()).isEqualTo("suspended");
        AccountState before = state(caller.accountId());

        for (Call call : CALLER_CALLS) {
            assertProblem(call.by(caller(caller)), 403, "account_suspended");
        }
        assertProblem(caller(caller).post("/api/tokens/spendings/" + spendingId + "/revert"), 403, "account_suspended");
        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(caller(bystander).post("/api/tokens/spend/1").status()).isEqualTo(201);

        Reply active = admin().put("/admin/accounts/" + caller.accountId() + "/status", Map.of("status", "active"));
        assertThat(active.json().path("status").asText()).isEqualTo("active");
        assertThat(balance(caller)).isEqualTo(900);
    }

    @Test
    void anUnknownAccountStatusIs400AndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(1000);
        AccountState before = state(caller.accountId());
        String path = "/admin/accounts/" + caller.accountId() + "/status";
        assertBadField(admin().put(path, Map.of("status", "frozen")), "invalid_request", "status");
        assertBadField(admin().put(path, Map.of()), "invalid_request", "status");
        assertProblem(
                admin().put("/admin/accounts/acct_nope/status", Map.of("status", "suspended")),
                404,
                "account_not_found");
        assertThat(state(caller.accountId())).isEqualTo(before);
    }

    @Test
    void anAdminKeyOnTheCallerApiIs403Forbidden() {
        for (Call call : CALLER_CALLS) {
            assertProblem(call.by(admin()), 403, "forbidden");
        }
    }

    @Test
    void aCallerKeyOnTheOperatorApiIs403ForbiddenAndChangesNothing() {
        Fixtures.Caller caller = fixtures.caller(1000);
        AccountState before = state(caller.accountId());
        for (Call call : operatorCalls(caller.accountId())) {
            assertProblem(call.by(caller(caller)), 403, "forbidden");
        }
        assertThat(state(caller.accountId())).isEqualTo(before);
        assertThat(admin().get("/admin/plans/free").json().path("name").asText())
                .isEqualTo("Free");
        assertProblem(admin().get("/admin/services/sneaky"), 404, "service_not_found");
        assertProblem(admin().get("/admin/plans/sneaky"), 404, "plan_not_found");
    }

    @Test
    void callerKeysArePlPrefixedWithAtLeast128RandomBits() {
        String accountId = fixtures.account(0);
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            keys.add(fixtures.key(accountId));
        }
        assertThat(keys).hasSize(20).allSatisfy(key -> assertThat(key).matches(CALLER_KEY));
        int length = keys.iterator().next().length();
        for (int position = "pl_".length(); position < length; position++) {
            int at = position;
            assertThat(keys.stream().map(key -> key.charAt(at)).distinct().count())
                    .as("characters seen at position %d", at)
                    .isGreaterThan(1);
        }
    }

    @Test
    void aKeyIsShownOnlyWhenCreatedAndOnlyItsHashIsStored() throws SQLException {
        String accountId = fixtures.account(100);
        Reply created = admin().post("/admin/accounts/" + accountId + "/keys", Map.of("name", "shown once"));
        assertThat(created.status()).isEqualTo(201);
        String key = created.json().path("key").asText();
        assertThat(key).matches(CALLER_KEY);
        assertThat(node.caller(key).get("/api/tokens/balance").status()).isEqualTo(200);

        for (Reply later : List.of(
                admin().get("/admin/accounts/" + accountId + "/keys"),
                admin().get("/admin/accounts/" + accountId),
                admin().get("/admin/accounts?limit=100"),
                admin().get("/admin/accounts/" + accountId + "/ledger"),
                node.caller(key).get("/api/tokens/plan"))) {
            assertThat(later.status()).isEqualTo(200);
            assertThat(later.text()).doesNotContain(key);
        }
        assertThat(node.console()).doesNotContain(key);
        assertThat(storedText()).doesNotContain(key).contains(sha256Hex(key));
    }

    private String keyId(String accountId, String key) {
        return admin().get("/admin/accounts/" + accountId + "/keys")
                .json()
                .path("data")
                .valueStream()
                .filter(k -> key.startsWith(k.path("prefix").asText()))
                .findFirst()
                .orElseThrow()
                .path("id")
                .asText();
    }

    private String keyExpiringAt(String accountId, Instant expiresAt) {
        Reply reply = admin().post("/admin/accounts/" + accountId + "/keys", Map.of("expiresAt", expiresAt.toString()));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(Instant.parse(reply.json().path("expiresAt").asText()))
                .isEqualTo(expiresAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS));
        return reply.json().path("key").asText();
    }

    /** Expiry is a moment on the clock, so this one test has to let the clock pass it. */
    private static void waitUntilAfter(Instant moment) {
        while (!Instant.now().isAfter(moment)) {
            try {
                Thread.sleep(Math.max(1, Duration.between(Instant.now(), moment).toMillis() + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Every value in the key table, as text, read straight from the database. */
    private String storedText() throws SQLException {
        StringBuilder text = new StringBuilder();
        try (Connection connection = DriverManager.getConnection(node.databaseUrl());
                Statement statement = connection.createStatement();
                ResultSet rs = statement.executeQuery("SELECT * FROM api_keys")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int column = 1; column <= columns; column++) {
                    text.append(rs.getString(column)).append('\n');
                }
            }
        }
        return text.toString();
    }

    private static String sha256Hex(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
