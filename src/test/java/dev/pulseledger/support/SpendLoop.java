package dev.pulseledger.support;

import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Callers that spend 1 token again and again, each with a fresh Idempotency-Key, until stopped, while
 * a test breaks the database under them; it keeps what they were answered: statuses, the acknowledged
 * spendings, when the last 201 came, the slowest answer, and every 503 that was not the expected problem.
 */
public final class SpendLoop {
    private final Set<String> expected503Codes;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
    private final Queue<String> acknowledged = new ConcurrentLinkedQueue<>();
    private final Queue<String> unexpected503s = new ConcurrentLinkedQueue<>();
    private final AtomicLong last201Nanos = new AtomicLong();
    private final AtomicLong slowestNanos = new AtomicLong();

    /** @param expected503Codes the problem codes a 503 may carry, as a problem+json with Retry-After */
    public SpendLoop(String... expected503Codes) {
        this.expected503Codes = Set.of(expected503Codes);
    }

    /** Spends until {@link #stop()}; run one per caller thread, each with its own {@code spender} number. */
    public void run(Api api, int spender) {
        for (int i = 0; running.get(); i++) {
            long start = System.nanoTime();
            Reply reply = api.send(
                    "POST", "/api/tokens/spend/1", null, Map.of("Idempotency-Key", "loop-" + spender + "-" + i));
            long end = System.nanoTime();
            slowestNanos.accumulateAndGet(end - start, Math::max);
            statuses.computeIfAbsent(reply.status(), s -> new AtomicLong()).incrementAndGet();
            if (reply.status() == 201) {
                acknowledged.add(reply.json().path("spendingId").asText());
                last201Nanos.accumulateAndGet(end, Math::max);
            } else if (reply.status() == 503 && !isExpectedProblem(reply)) {
                unexpected503s.add(reply.toString());
            }
        }
    }

    public void stop() {
        running.set(false);
    }

    public long countOf(int status) {
        AtomicLong count = statuses.get(status);
        return count == null ? 0 : count.get();
    }

    /** Every status answered, with how often. */
    public Map<Integer, Long> statuses() {
        Map<Integer, Long> copy = new java.util.TreeMap<>();
        statuses.forEach((status, count) -> copy.put(status, count.get()));
        return copy;
    }

    public Queue<String> acknowledged() {
        return acknowledged;
    }

    public Queue<String> unexpected503s() {
        return unexpected503s;
    }

    /** {@link System#nanoTime()} when the latest 201 arrived; 0 before any. */
    public long last201Nanos() {
        return last201Nanos.get();
    }

    public long slowestNanos() {
        return slowestNanos.get();
    }

    private boolean isExpectedProblem(Reply reply) {
        return reply.contentType().startsWith("application/problem+json")
                && expected503Codes.contains(reply.code())
                && reply.header("Retry-After").isPresent();
    }
}
