package dev.pulseledger.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Base of the contract suite: each test class runs once per store against one node of its own,
 * shared by its tests, which is safe because each test makes its own accounts, plans and services.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(TestStore.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ContractTest {
    /** RFC 3339 in UTC, as the contract writes timestamps. */
    static final String RFC_3339_UTC = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,9})?Z";

    @Parameter
    TestStore store;

    TestNode node;
    Fixtures fixtures;

    @BeforeParameterizedClassInvocation(injectArguments = false)
    void startNode() {
        node = TestNode.start(store.newDatabaseUrl());
        fixtures = new Fixtures(node);
    }

    @AfterParameterizedClassInvocation
    void stopNode() {
        node.close();
    }

    Api admin() {
        return node.admin();
    }

    Api caller(Fixtures.Caller caller) {
        return node.caller(caller.key());
    }

    /** Asserts the RFC 9457 shape every error shares, with the expected status and stable code. */
    static void assertProblem(Reply reply, int status, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(status);
        assertThat(reply.contentType()).as(reply.toString()).startsWith("application/problem+json");
        JsonNode json = reply.json();
        assertThat(json.path("type").asText()).as(reply.toString()).isNotBlank();
        assertThat(json.path("title").asText()).as(reply.toString()).isNotBlank();
        assertThat(json.path("status").isInt()).as(reply.toString()).isTrue();
        assertThat(json.path("status").asInt()).as(reply.toString()).isEqualTo(status);
        assertThat(json.path("detail").asText()).as(reply.toString()).isNotBlank();
        assertThat(reply.code()).as(reply.toString()).isEqualTo(code);
        assertThat(reply.header("X-Request-Id")).as(reply.toString()).isPresent();
        assertThat(reply.text()).doesNotContain("Exception", "\tat ", "<html");
    }

    /** Asserts a 400 whose detail names the offending field or parameter. */
    static void assertBadField(Reply reply, String code, String field) {
        assertProblem(reply, 400, code);
        assertThat(reply.json().path("detail").asText()).as(reply.toString()).contains("'" + field + "'");
    }

    /** What an account looks like to the operator: its row and every ledger entry. */
    record AccountState(JsonNode account, List<JsonNode> ledger) {}

    AccountState state(String accountId) {
        Reply account = admin().get("/admin/accounts/" + accountId);
        assertThat(account.status()).as(account.toString()).isEqualTo(200);
        return new AccountState(account.json(), ledger(accountId));
    }

    /** Every ledger entry of the account, newest first. */
    List<JsonNode> ledger(String accountId) {
        return everyItem(admin(), "/admin/accounts/" + accountId + "/ledger");
    }

    /** Every item of a cursor-paged list, following {@code nextCursor} to the end. */
    static List<JsonNode> everyItem(Api api, String path) {
        List<JsonNode> items = new ArrayList<>();
        String query = "?limit=100";
        for (int page = 0; page < 1000; page++) {
            Reply reply = api.get(path + query);
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.json().path("data").forEach(items::add);
            JsonNode next = reply.json().path("nextCursor");
            if (next.isNull()) {
                return items;
            }
            query = "?limit=100&cursor=" + next.asText();
        }
        throw new AssertionError(path + " never ended");
    }

    /** Sends {@code count} requests at once (as near as threads allow) and returns every reply. */
    static List<Reply> concurrently(int count, Supplier<Reply> request) {
        CyclicBarrier start = new CyclicBarrier(count);
        try (ExecutorService threads = Executors.newFixedThreadPool(count)) {
            List<Future<Reply>> replies = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                replies.add(threads.submit(() -> {
                    start.await();
                    return request.get();
                }));
            }
            List<Reply> done = new ArrayList<>();
            for (Future<Reply> reply : replies) {
                done.add(reply.get());
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /** Spends and returns the new spending's id. */
    String spendingId(Fixtures.Caller caller, long amount) {
        Reply reply = caller(caller).post("/api/tokens/spend/" + amount);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        return reply.json().path("spendingId").asText();
    }

    long balance(Fixtures.Caller caller) {
        Reply reply = caller(caller).get("/api/tokens/balance");
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        return reply.json().path("balance").asLong();
    }
}
