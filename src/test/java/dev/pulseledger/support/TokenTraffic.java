package dev.pulseledger.support;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/**
 * Mixed caller and operator traffic from many threads at once, spread over one or more nodes: spends
 * (some with an Idempotency-Key sent twice to different nodes), reverts of recent spendings (so
 * reverts of one spending collide), balance reads, operator credits, and callers probing each
 * other's spendings. Every answer goes into a {@link SpendBook}.
 */
public final class TokenTraffic {
    private static final long MAX_SPEND = 60;
    private static final long MAX_CREDIT = 100;

    /** Relative weights of the operations; a zero weight leaves that operation out. */
    public record Mix(int spend, int idempotentSpend, int revert, int read, int credit, int probe) {
        public static final Mix EVERYTHING = new Mix(40, 10, 20, 15, 5, 10);
        /** No credits: a credit whose answer is lost would leave the expected total unknown. */
        public static final Mix NO_CREDITS = new Mix(50, 10, 25, 10, 0, 5);

        int total() {
            return spend + idempotentSpend + revert + read + credit + probe;
        }
    }

    private final List<String> baseUrls;
    private final List<Fixtures.Caller> spenders;
    private final List<Fixtures.Caller> everyone;
    private final SpendBook book;
    private final Mix mix;

    /**
     * @param baseUrls the nodes; operation k of thread t goes to node (t + k) mod n
     * @param spenders the accounts the threads spend from; thread t uses spender t mod n
     * @param bystanders further accounts that only probe the spenders' spendings
     */
    public TokenTraffic(
            List<String> baseUrls,
            List<Fixtures.Caller> spenders,
            List<Fixtures.Caller> bystanders,
            SpendBook book,
            Mix mix) {
        this.baseUrls = List.copyOf(baseUrls);
        this.spenders = List.copyOf(spenders);
        List<Fixtures.Caller> all = new ArrayList<>(spenders);
        all.addAll(bystanders);
        this.everyone = List.copyOf(all);
        this.book = book;
        this.mix = mix;
    }

    /** Runs the traffic to completion. */
    public void run(int threads, int operationsPerThread) {
        start(threads, operationsPerThread).join();
    }

    /**
     * Starts the traffic on its own threads, all released at once. A thread stops early when a node
     * stops answering (its last request then has an unknown outcome).
     */
    public CompletableFuture<Void> start(int threads, int operationsPerThread) {
        List<CompletableFuture<Object>> workers = Simultaneously.start(threads, thread -> {
            Random random = new Random(thread);
            int step = 0;
            while (step < operationsPerThread && operate(thread, step, random)) {
                step++;
            }
            return null;
        });
        return CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new));
    }

    /**
     * Reverts up to {@code spendingCount} unreverted spendings of the account, each from {@code
     * revertersEach} threads released at the same moment, spread over the nodes.
     */
    public void revertStorm(Fixtures.Caller owner, int spendingCount, int revertersEach) {
        List<String> targets = book.unrevertedSpendings(owner.accountId(), spendingCount);
        Simultaneously.run(targets.size() * revertersEach, i -> {
            String target = targets.get(i / revertersEach);
            Api api = new Api(baseUrls.get(i % baseUrls.size()), owner.key());
            book.reverted(target, api.post(revertPath(target)));
            return null;
        });
    }

    /** An API client on the given node per account, for {@link SpendBook#assertAccountsAgree}. */
    public Map<String, Api> callersByAccount(String baseUrl) {
        Map<String, Api> callers = new LinkedHashMap<>();
        everyone.forEach(c -> callers.put(c.accountId(), new Api(baseUrl, c.key())));
        return callers;
    }

    /** One operation; false when the node did not answer. */
    private boolean operate(int thread, int step, Random random) {
        String baseUrl = baseUrls.get((thread + step) % baseUrls.size());
        Fixtures.Caller me = spenders.get(thread % spenders.size());
        Api api = new Api(baseUrl, me.key());
        int roll = random.nextInt(mix.total());
        try {
            if ((roll -= mix.spend()) < 0) {
                spend(api, me, random);
            } else if ((roll -= mix.idempotentSpend()) < 0) {
                idempotentSpend(baseUrl, thread, step, me, random);
            } else if ((roll -= mix.revert()) < 0) {
                Optional<String> target = book.recentSpending(me.accountId(), random);
                if (target.isPresent()) {
                    book.reverted(target.get(), api.post(revertPath(target.get())));
                } else {
                    spend(api, me, random);
                }
            } else if ((roll -= mix.read()) < 0) {
                book.balanceRead(api.get("/api/tokens/balance"));
            } else if ((roll -= mix.credit()) < 0) {
                long amount = 1L + random.nextInt((int) MAX_CREDIT);
                book.credited(
                        me.accountId(),
                        amount,
                        new Api(baseUrl, TestNode.ADMIN_KEY)
                                .post(
                                        "/admin/accounts/" + me.accountId() + "/credits",
                                        Map.of("amount", amount, "reason", "traffic")));
            } else {
                probe(baseUrl, me, random);
            }
            return true;
        } catch (UncheckedIOException e) {
            book.outcomeUnknown();
            return false;
        }
    }

    private void spend(Api api, Fixtures.Caller me, Random random) {
        long amount = 1L + random.nextInt((int) MAX_SPEND);
        book.spent(me.accountId(), amount, false, api.post("/api/tokens/spend/" + amount));
    }

    /** Spends with a fresh key on one node, then repeats it on the next: the repeat must replay. */
    private void idempotentSpend(String baseUrl, int thread, int step, Fixtures.Caller me, Random random) {
        long amount = 1L + random.nextInt((int) MAX_SPEND);
        Map<String, String> key = Map.of("Idempotency-Key", "traffic-" + UUID.randomUUID());
        String path = "/api/tokens/spend/" + amount;
        Reply first = new Api(baseUrl, me.key()).send("POST", path, null, key);
        book.spent(me.accountId(), amount, true, first);
        String otherNode = baseUrls.get((thread + step + 1) % baseUrls.size());
        Reply again = new Api(otherNode, me.key()).send("POST", path, null, key);
        book.spent(me.accountId(), amount, true, again);
        boolean replayed = again.status() == first.status()
                && again.json().equals(first.json())
                && again.header("Idempotent-Replayed").equals(Optional.of("true"));
        if ((first.status() == 201 || first.status() == 402) && !replayed) {
            book.problem("repeat of " + first + " with the same Idempotency-Key", again);
        }
    }

    /** Another caller reads and tries to revert one of my spendings: both must be 404. */
    private void probe(String baseUrl, Fixtures.Caller me, Random random) {
        Optional<String> target = book.recentSpending(me.accountId(), random);
        List<Fixtures.Caller> others =
                everyone.stream().filter(c -> !c.equals(me)).toList();
        if (target.isEmpty() || others.isEmpty()) {
            return;
        }
        Api stranger =
                new Api(baseUrl, others.get(random.nextInt(others.size())).key());
        book.strangerRefused("read", stranger.get("/api/tokens/spendings/" + target.get()));
        book.strangerRefused("revert", stranger.post(revertPath(target.get())));
    }

    private static String revertPath(String spendingId) {
        return "/api/tokens/spendings/" + spendingId + "/revert";
    }
}
