package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

/** Sets up accounts and keys through the operator API, as an operator would. */
public final class Fixtures {
    private final Api admin;

    public Fixtures(TestNode node) {
        this(node.admin());
    }

    /** Fixtures made through any node's operator API, given as a client with the admin key. */
    public Fixtures(Api admin) {
        this.admin = admin;
    }

    /** Creates an account on the free plan with the given opening balance; returns its id. */
    public String account(long balance) {
        Reply reply = admin.post("/admin/accounts", Map.of("name", "test account", "balance", balance));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    /** Creates an account on the given plan with the given opening balance; returns its id. */
    public String account(String planId, long balance) {
        Reply reply =
                admin.post("/admin/accounts", Map.of("name", "test account", "planId", planId, "balance", balance));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().get("id").asText();
    }

    /** Creates a plan allowing {@code rateLimitPerMinute} requests per minute per key. */
    public void rateLimitedPlan(String planId, long rateLimitPerMinute) {
        Reply reply = admin.post(
                "/admin/plans",
                Map.of("id", planId, "name", "Plan " + planId, "rateLimitPerMinute", rateLimitPerMinute));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
    }

    /** Issues a caller key for the account and returns the key itself. */
    public String key(String accountId) {
        return issueKey(accountId).key();
    }

    /** Issues a caller key for the account; returns its id and the key itself. */
    public IssuedKey issueKey(String accountId) {
        Reply reply = admin.post("/admin/accounts/" + accountId + "/keys", Map.of("name", "test key"));
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return new IssuedKey(
                reply.json().get("id").asText(), reply.json().get("key").asText());
    }

    /** An account with a balance and a caller key for it. */
    public Caller caller(long balance) {
        String accountId = account(balance);
        return new Caller(accountId, key(accountId));
    }

    /** A caller key as issued: its id and the plaintext key. */
    public record IssuedKey(String id, String key) {}

    /** A test caller: its account id and its plaintext key. */
    public record Caller(String accountId, String key) {}
}
