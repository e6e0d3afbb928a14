package dev.pulseledger.support;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.SoftAssertions;

/**
 * The book a careful client keeps during a concurrent run: every credit, 201 spending and 200 revert
 * the API acknowledged, and every answer it should never have given. At the end the accounts read
 * back through the API must agree with the book exactly (CONTRACT §6.1, §6.2, §6.4, §6.5).
 */
public final class SpendBook {
    private static final int MAX_PAGES = 1000;

    /** A spending as its 201 described it. */
    private record Acked(String accountId, long amount) {}

    private final Map<String, Long> credits = new ConcurrentHashMap<>();
    private final Map<String, Acked> spendings = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> firstAnswers = new ConcurrentHashMap<>();
    private final Map<String, String> revertedAt = new ConcurrentHashMap<>();
    private final Map<String, List<String>> spendingsByAccount = new ConcurrentHashMap<>();
    private final AtomicInteger unknownOutcomes = new AtomicInteger();
    private final Queue<String> problems = new ConcurrentLinkedQueue<>();

    /** An account the run may touch, with the tokens it opened with. */
    public void opened(String accountId, long openingBalance) {
        credits.merge(accountId, openingBalance, Long::sum);
        spendingsByAccount.putIfAbsent(accountId, new CopyOnWriteArrayList<>());
    }

    /** The answer to an operator credit of {@code amount}. */
    public void credited(String accountId, long amount, Reply reply) {
        if (reply.status() == 201) {
            credits.merge(accountId, amount, Long::sum);
        } else {
            problem("credit of " + amount + " to " + accountId, reply);
        }
    }

    /**
     * The answer to a spend of {@code amount}: a 201 (first or replayed), a 402, or with an
     * Idempotency-Key a 409.
     */
    public void spent(String accountId, long amount, boolean withIdempotencyKey, Reply reply) {
        JsonNode body = reply.json();
        switch (reply.status()) {
            case 201 -> {
                String id = body.path("spendingId").asText();
                boolean replayed = reply.header("Idempotent-Replayed").isPresent();
                boolean sane = id.startsWith("sp_")
                        && body.path("amount").asLong() == amount
                        && body.path("balance").asLong(-1) >= 0
                        && "active".equals(body.path("status").asText())
                        && reply.header("Location").equals(Optional.of("/api/tokens/spendings/" + id));
                Acked earlier = spendings.putIfAbsent(id, new Acked(accountId, amount));
                if (!sane || (earlier != null && !earlier.equals(new Acked(accountId, amount)))) {
                    problem("spend of " + amount, reply);
                }
                if (earlier == null) {
                    spendingsByAccount.get(accountId).add(id);
                }
                AtomicInteger firsts = firstAnswers.computeIfAbsent(id, k -> new AtomicInteger());
                if (!replayed) {
                    firsts.incrementAndGet();
                }
            }
            case 402 -> {
                long balance = body.path("balance").asLong(-1);
                boolean sane = "insufficient_balance".equals(reply.code())
                        && balance >= 0
                        && balance < amount
                        && body.path("required").asLong() == amount;
                if (!sane) {
                    problem("spend of " + amount, reply);
                }
            }
            case 409 -> {
                if (!withIdempotencyKey || !"idempotency_key_in_use".equals(reply.code())) {
                    problem("spend of " + amount, reply);
                }
            }
            default -> problem("spend of " + amount, reply);
        }
    }

    /** The answer to the owner's revert of one of its spendings: always a 200. */
    public void reverted(String spendingId, Reply reply) {
        JsonNode body = reply.json();
        Acked acked = spendings.get(spendingId);
        String at = body.path("revertedAt").asText("");
        boolean sane = reply.status() == 200
                && spendingId.equals(body.path("spendingId").asText())
                && "reverted".equals(body.path("status").asText())
                && body.path("amount").asLong() == acked.amount()
                && body.path("balance").asLong(-1) >= 0
                && !at.isEmpty();
        String first = sane ? revertedAt.putIfAbsent(spendingId, at) : null;
        if (!sane || (first != null && !first.equals(at))) {
            problem("revert of " + spendingId + " (first revertedAt " + first + ")", reply);
        }
    }

    /** The answer to a balance read. */
    public void balanceRead(Reply reply) {
        if (reply.status() != 200 || reply.json().path("balance").asLong(-1) < 0) {
            problem("balance read", reply);
        }
    }

    /** The answer to a caller reading or reverting a spending that is not its own: always 404. */
    public void strangerRefused(String what, Reply reply) {
        if (reply.status() != 404 || !"spending_not_found".equals(reply.code())) {
            problem(what + " of another caller's spending", reply);
        }
    }

    /** A request whose outcome the client cannot know (the connection died under it). */
    public void outcomeUnknown() {
        unknownOutcomes.incrementAndGet();
    }

    public void problem(String what, Reply reply) {
        problems.add(what + " -> " + reply);
    }

    /** One of the account's acknowledged spendings, preferring recent ones so that reverts collide. */
    public Optional<String> recentSpending(String accountId, Random random) {
        List<String> ids = spendingsByAccount.get(accountId);
        if (ids.isEmpty()) {
            return Optional.empty();
        }
        int window = Math.min(ids.size(), 8);
        return Optional.of(ids.get(ids.size() - 1 - random.nextInt(window)));
    }

    /** Up to {@code limit} acknowledged spendings of the account that no acknowledged revert touched. */
    public List<String> unrevertedSpendings(String accountId, int limit) {
        return spendingsByAccount.get(accountId).stream()
                .filter(id -> !revertedAt.containsKey(id))
                .limit(limit)
                .toList();
    }

    public int acknowledgedSpendings() {
        return spendings.size();
    }

    public int outcomesUnknown() {
        return unknownOutcomes.get();
    }

    /**
     * Reads every account back through the API and checks it against the book: each acknowledged
     * spending exists once with its amount and was answered as new exactly once; each acknowledged
     * revert shows with the revertedAt every caller saw, refunded once in the ledger; nothing else
     * happened except up to {@link #outcomesUnknown()} requests whose answers were lost; balance =
     * credits - unreverted spendings, never negative.
     *
     * @param callers an API client per account id, with that account's key
     */
    public void assertAccountsAgree(Api admin, Map<String, Api> callers) {
        SoftAssertions softly = new SoftAssertions();
        softly.assertThat(problems).as("answers the contract does not allow").isEmpty();
        int unexplained = 0;
        for (Map.Entry<String, Api> caller : callers.entrySet()) {
            unexplained += checkAccount(softly, admin, caller.getKey(), caller.getValue());
        }
        softly.assertThat(unexplained)
                .as("spendings or reverts in the database that no answer acknowledged")
                .isLessThanOrEqualTo(unknownOutcomes.get());
        firstAnswers.forEach((id, firsts) -> softly.assertThat(firsts.get())
                .as("non-replayed 201s for " + id)
                .isEqualTo(1));
        softly.assertAll();
    }

    /** Checks one account; returns how many of its changes no acknowledged answer explains. */
    private int checkAccount(SoftAssertions softly, Api admin, String accountId, Api caller) {
        Map<String, JsonNode> listed = new HashMap<>();
        for (JsonNode spending : allPages(caller, "/api/tokens/spendings")) {
            String id = spending.path("spendingId").asText();
            softly.assertThat(listed.put(id, spending))
                    .as("spending listed twice: " + id)
                    .isNull();
        }
        int unexplained = 0;
        long unrevertedTotal = 0;
        for (JsonNode spending : listed.values()) {
            String id = spending.path("spendingId").asText();
            boolean reverted = "reverted".equals(spending.path("status").asText());
            if (!reverted) {
                unrevertedTotal += spending.path("amount").asLong();
            }
            Acked acked = spendings.get(id);
            if (acked == null) {
                unexplained++;
                continue;
            }
            softly.assertThat(acked.accountId())
                    .as("account of listed spending " + id)
                    .isEqualTo(accountId);
            softly.assertThat(acked.amount())
                    .as("amount of " + id)
                    .isEqualTo(spending.path("amount").asLong());
            String ackedRevert = revertedAt.get(id);
            if (ackedRevert != null) {
                softly.assertThat(spending.path("revertedAt").asText())
                        .as("revertedAt of " + id)
                        .isEqualTo(ackedRevert);
            } else if (reverted) {
                unexplained++;
            }
        }
        spendings.forEach((id, acked) -> {
            if (acked.accountId().equals(accountId)) {
                softly.assertThat(listed).as("acknowledged spending " + id).containsKey(id);
            }
        });
        checkLedger(softly, admin, accountId, listed);
        long balance = caller.get("/api/tokens/balance").json().path("balance").asLong(-1);
        softly.assertThat(balance).as("balance of " + accountId).isNotNegative();
        softly.assertThat(balance)
                .as("balance of " + accountId + " = credits - unreverted spendings")
                .isEqualTo(credits.get(accountId) - unrevertedTotal);
        return unexplained;
    }

    /** Every listed spending has one spend entry, and one revert entry exactly when reverted. */
    private void checkLedger(SoftAssertions softly, Api admin, String accountId, Map<String, JsonNode> listed) {
        Map<String, Integer> spends = new HashMap<>();
        Map<String, Integer> refunds = new HashMap<>();
        long creditTotal = 0;
        for (JsonNode entry : allPages(admin, "/admin/accounts/" + accountId + "/ledger")) {
            String spendingId = entry.path("spendingId").asText();
            switch (entry.path("kind").asText()) {
                case "credit" -> creditTotal += entry.path("amount").asLong();
                case "spend" -> spends.merge(spendingId, 1, Integer::sum);
                case "revert" -> refunds.merge(spendingId, 1, Integer::sum);
                default -> softly.fail("unknown ledger entry " + entry);
            }
        }
        softly.assertThat(creditTotal).as("credits of " + accountId).isEqualTo(credits.get(accountId));
        softly.assertThat(spends.keySet()).as("spend entries of " + accountId).isEqualTo(listed.keySet());
        listed.forEach((id, spending) -> {
            softly.assertThat(spends.get(id)).as("spend entries of " + id).isEqualTo(1);
            int expectedRefunds = "reverted".equals(spending.path("status").asText()) ? 1 : 0;
            softly.assertThat(refunds.getOrDefault(id, 0))
                    .as("refunds of " + id)
                    .isEqualTo(expectedRefunds);
        });
    }

    private static List<JsonNode> allPages(Api api, String path) {
        return allPages(api, path, 100);
    }

    /** Every item of a cursor-paged listing, newest first, read {@code pageSize} items a page. */
    public static List<JsonNode> allPages(Api api, String path, int pageSize) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            Reply reply = api.get(path + "?limit=" + pageSize + (cursor == null ? "" : "&cursor=" + cursor));
            assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
            reply.json().path("data").forEach(items::add);
            JsonNode next = reply.json().path("nextCursor");
            if (next.isNull() || next.isMissingNode()) {
                return items;
            }
            cursor = next.asText();
        }
        throw new AssertionError(path + " has more than " + MAX_PAGES + " pages");
    }
}
