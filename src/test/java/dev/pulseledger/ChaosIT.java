package dev.pulseledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.pulseledger.store.Fault;
import dev.pulseledger.support.Api;
import dev.pulseledger.support.Fixtures;
import dev.pulseledger.support.JarNode;
import dev.pulseledger.support.LedgerAudit;
import dev.pulseledger.support.PostgresPair;
import dev.pulseledger.support.Reply;
import dev.pulseledger.support.SpendLoop;
import dev.pulseledger.support.TcpProxy;
import dev.pulseledger.support.TestNode;
import dev.pulseledger.support.TestStore;
import dev.pulseledger.support.Waiting;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three packaged nodes on one PostgreSQL, each through its own TCP relay, under a mixed load (spends
 * with and without Idempotency-Key, double reverts from two nodes at once, balance reads, credits,
 * reservations settled or released from two nodes at once or left to expire)
 * while one node is killed and restarted, one is paused while it holds an account's row lock, the
 * database is cut off from every node, and one node's connections are cut. Every request and answer
 * is recorded; afterwards the ledger and the answers must agree (CONTRACT §6, §12).
 */
class ChaosIT {
    private static final int NODES = 3;
    private static final int WORKERS = 9;
    private static final long OPENING_BALANCE = 1_000_000_000L;
    private static final Duration FAULT = Duration.ofSeconds(4);
    private static final Duration PAUSE = Duration.ofSeconds(7);
    private static final Duration SERVES_AGAIN_WITHIN = Duration.ofSeconds(10);
    private static final Duration BLAST_RADIUS = Duration.ofSeconds(5);
    private static final int PAUSE_ATTEMPTS = 20;

    /** One request and its answer; status -1 when no answer came (refused, reset, timed out). */
    private record Exchange(
            String operation, int node, long startNanos, long endNanos, String accountId, Reply reply, String key) {
        int status() {
            return reply == null ? -1 : reply.status();
        }
    }

    private final Queue<Exchange> log = new ConcurrentLinkedQueue<>();
    private final AtomicReferenceArray<JarNode> nodes = new AtomicReferenceArray<>(NODES);
    /** Every node started, killed ones too, so that their logs can be shown when a check fails. */
    private final Queue<JarNode> started = new ConcurrentLinkedQueue<>();

    private final List<String> recoveries = new ArrayList<>();
    private final List<String> slowRecoveries = new ArrayList<>();
    private volatile boolean running = true;
    private Fixtures.Caller hot;
    private List<Fixtures.Caller> callers;

    @Test
    @Timeout(value = 600, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void theLedgerHoldsAndEveryNodeServesAgainAfterKillsPausesAndCutConnections() throws Exception {
        String url = TestStore.POSTGRESQL.newDatabaseUrl();
        List<TcpProxy> proxies = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            proxies.add(TcpProxy.inFrontOf(url));
            nodes.set(i, started(JarNode.start(proxies.get(i).proxied(url))));
        }
        List<Thread> workers = new ArrayList<>();
        try {
            Fixtures fixtures = new Fixtures(nodes.get(0).admin());
            hot = fixtures.caller(OPENING_BALANCE);
            callers = List.of(hot, fixtures.caller(OPENING_BALANCE), fixtures.caller(OPENING_BALANCE));
            for (int w = 0; w < WORKERS; w++) {
                int seed = w;
                workers.add(Thread.ofPlatform().name("chaos-worker-" + w).start(() -> work(new Random(seed))));
            }
            awaitSpends(100);

            JarNode killed = nodes.getAndSet(0, null);
            killed.kill();
            nodes.set(0, started(JarNode.start(proxies.get(0).proxied(url))));
            servesAgain("node 0 after SIGKILL and restart", 0);

            Duration blocked = pauseWhileHoldingALock(1, url);
            servesAgain("node 1 after SIGSTOP/SIGCONT", 1);

            for (TcpProxy proxy : proxies) {
                proxy.cut();
            }
            Thread.sleep(FAULT);
            for (TcpProxy proxy : proxies) {
                proxy.restore();
            }
            for (int i = 0; i < NODES; i++) {
                servesAgain("node " + i + " after the database was cut off from every node", i);
            }

            proxies.get(2).cut();
            Thread.sleep(FAULT);
            proxies.get(2).restore();
            servesAgain("node 2 after its database connections were cut", 2);
            awaitSpends(countSpends() + 50);

            running = false;
            for (Thread worker : workers) {
                worker.join(Duration.ofSeconds(90).toMillis());
            }
            report(blocked);
            check(url, blocked);
        } finally {
            running = false;
            for (int i = 0; i < NODES; i++) {
                JarNode node = nodes.get(i);
                if (node != null) {
                    node.close();
                }
            }
            for (TcpProxy proxy : proxies) {
                proxy.close();
            }
        }
    }

    /**
     * PostgreSQL itself killed under spend load (SIGKILL of its postmaster and every backend, then a
     * restart that recovers from the WAL): a node answers 201 only once the commit is durable, so every
     * acknowledged spend is there afterwards, once. The server's WAL writer is slowed down on purpose, so
     * that a commit acknowledged before its WAL is flushed (synchronous_commit = off, or an answer sent
     * before the commit) would be lost with the killed server's memory and caught here.
     */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS) // a fuse against a hang, not a speed check
    void everyAcknowledgedSpendSurvivesPostgresqlKilledUnderLoad() throws Exception {
        try (PostgresPair database = PostgresPair.startAlone("wal_writer_delay = 5000ms")) {
            String url = database.primaryUrl();
            String[] flags = {"--db-connection-timeout-ms", "1000", "--db-statement-timeout-ms", "2000"};
            SpendLoop spends = new SpendLoop(Fault.DATABASE_UNAVAILABLE.code(), Fault.ACCOUNT_BUSY.code());
            String accountId;
            try (TestNode first = TestNode.start(url, flags);
                    TestNode second = TestNode.start(url, flags);
                    ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
                Fixtures.Caller caller = new Fixtures(first).caller(OPENING_BALANCE);
                accountId = caller.accountId();
                List<Api> apis = List.of(first.caller(caller.key()), second.caller(caller.key()));
                List<Future<?>> spenders = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    int spender = i;
                    spenders.add(threads.submit(() -> spends.run(apis.get(spender % 2), spender)));
                }
                Waiting.until(
                        "spends before the kill", () -> spends.acknowledged().size() >= 300);
                database.killPrimary();
                Waiting.until("503s while PostgreSQL is down", () -> spends.countOf(503) >= 8);
                database.restartPrimary();
                int acknowledgedAtRestart = spends.acknowledged().size();
                Waiting.until(
                        "spends after the restart", () -> spends.acknowledged().size() >= acknowledgedAtRestart + 200);
                spends.stop();
                for (Future<?> spender : spenders) {
                    spender.get();
                }
            }
            System.out.println("ChaosIT (PostgreSQL killed): answers by status " + spends.statuses());
            assertThat(spends.statuses().keySet()).as("statuses").containsOnly(201, 503);
            assertThat(spends.unexpected503s())
                    .as("503s that are not a clean problem")
                    .isEmpty();
            assertThat(missingSpendings(url, spends.acknowledged()))
                    .as("acknowledged spendings missing after PostgreSQL was killed and restarted")
                    .isEmpty();
            assertThat(OPENING_BALANCE - balanceOf(url, accountId))
                    .as("tokens debited: one per spending kept, none twice")
                    .isEqualTo(countOf(url, "SELECT count(*) FROM spendings WHERE account_id = ?", accountId));
            assertThat(LedgerAudit.mismatches(url)).isEmpty();
        }
    }

    private static List<String> missingSpendings(String url, Queue<String> acknowledged) throws SQLException {
        List<String> missing = new ArrayList<>();
        for (String id : acknowledged) {
            if (countOf(url, "SELECT count(*) FROM spendings WHERE id = ?", id) != 1) {
                missing.add(id);
            }
        }
        return missing;
    }

    private static long balanceOf(String url, String accountId) throws SQLException {
        return countOf(url, "SELECT balance FROM accounts WHERE id = ?", accountId);
    }

    private static long countOf(String url, String sql, String parameter) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement(sql)) {
            ps.setString(1, parameter);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Pauses the node until it is caught holding the shared account's row lock, keeps it paused, and
     * returns how long after the pause another node's spend on that account succeeded.
     */
    private Duration pauseWhileHoldingALock(int index, String url) throws Exception {
        AtomicBoolean probing = new AtomicBoolean(true);
        Thread prober =
                Thread.ofPlatform().name("chaos-prober").start(() -> spendOnHotAccountElsewhere(index, probing));
        try {
            return pauseUntilCaughtHoldingALock(index, url);
        } finally {
            probing.set(false);
            prober.join();
        }
    }

    /**
     * Spends on the shared account through the nodes other than {@code pausedNode} until told to stop:
     * the workers pick nodes at random, so during a long pause they all end up waiting on the paused
     * node and none would be left to show whether the others can spend on the account.
     */
    private void spendOnHotAccountElsewhere(int pausedNode, AtomicBoolean probing) {
        for (int i = 0; probing.get(); i++) {
            int index = (pausedNode + 1 + i % (NODES - 1)) % NODES;
            send("spend", index, hot, "POST", "/api/tokens/spend/1", null);
        }
    }

    private Duration pauseUntilCaughtHoldingALock(int index, String url) throws Exception {
        JarNode node = nodes.get(index);
        for (int attempt = 1; attempt <= PAUSE_ATTEMPTS; attempt++) {
            long pausedAt = System.nanoTime();
            node.pause();
            boolean holding = Waiting.within(Duration.ofMillis(1500), () -> lockedThroughout(url, hot.accountId()));
            if (holding) {
                // Only a spend that began once the lock was seen held shows the others getting past it.
                long caughtAt = System.nanoTime();
                // The fault itself: the node stays paused for PAUSE while the others keep spending.
                Thread.sleep(Duration.ofNanos(Math.max(0, pausedAt + PAUSE.toNanos() - System.nanoTime())));
                Optional<Exchange> spent = firstSpendOnHotAccountElsewhere(index, caughtAt);
                node.resume();
                System.out.printf("Node %d paused while holding a lock (attempt %d)%n", index, attempt);
                return spent.map(e -> Duration.ofNanos(e.endNanos() - pausedAt)).orElse(PAUSE);
            }
            node.resume();
            Thread.sleep(200);
        }
        throw new AssertionError("Node " + index + " was never caught holding a lock in " + PAUSE_ATTEMPTS + " pauses");
    }

    private Optional<Exchange> firstSpendOnHotAccountElsewhere(int pausedNode, long afterNanos) {
        return log.stream()
                .filter(e -> e.operation().startsWith("spend")
                        && e.node() != pausedNode
                        && e.accountId().equals(hot.accountId())
                        && e.startNanos() > afterNanos
                        && e.status() == 201)
                .min((a, b) -> Long.compare(a.endNanos(), b.endNanos()));
    }

    /**
     * The account's row stays locked for 300 ms on end: no other node's batch holds a lock that long,
     * so the paused node's open transaction holds it.
     */
    private static boolean lockedThroughout(String url, String accountId) {
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps =
                        connection.prepareStatement("SELECT 1 FROM accounts WHERE id = ? FOR UPDATE NOWAIT")) {
            ps.setString(1, accountId);
            for (int probe = 0; probe < 4; probe++) {
                try {
                    ps.executeQuery().close();
                    return false;
                } catch (SQLException e) {
                    if (!"55P03".equals(e.getSQLState())) {
                        throw e;
                    }
                }
                Thread.sleep(100);
            }
            return true;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Polls the node until it serves a balance read; records how long that took after the fault ended. */
    private void servesAgain(String what, int index) throws InterruptedException {
        long start = System.nanoTime();
        Api api = new Api(nodes.get(index).baseUrl(), hot.key());
        Waiting.within(Duration.ofSeconds(60), () -> status(() -> api.get("/api/tokens/balance")) == 200);
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        String line = String.format("%s: serves again %d ms after the fault ended", what, took.toMillis());
        recoveries.add(line);
        if (took.compareTo(SERVES_AGAIN_WITHIN) > 0) {
            slowRecoveries.add(line);
        }
    }

    private static int status(Supplier<Reply> request) {
        try {
            return request.get().status();
        } catch (UncheckedIOException e) {
            return -1;
        }
    }

    private void awaitSpends(long count) throws InterruptedException {
        Waiting.within(Duration.ofSeconds(60), () -> countSpends() >= count);
    }

    private long countSpends() {
        return log.stream()
                .filter(e -> e.operation().startsWith("spend") && e.status() == 201)
                .count();
    }

    /** One worker: random operations on random nodes until the run ends. */
    private void work(Random random) {
        while (running) {
            int index = random.nextInt(NODES);
            JarNode node = nodes.get(index);
            if (node == null) {
                continue;
            }
            Fixtures.Caller me = random.nextInt(2) == 0 ? hot : callers.get(random.nextInt(callers.size()));
            int roll = random.nextInt(100);
            if (roll < 45) {
                send("spend", index, me, "POST", "/api/tokens/spend/" + (1 + random.nextInt(5)), null);
            } else if (roll < 60) {
                idempotentSpend(random, me);
            } else if (roll < 72) {
                doubleRevert(random);
            } else if (roll < 87) {
                send("balance", index, me, "GET", "/api/tokens/balance", null);
            } else if (roll < 93) {
                reservation(random, me);
            } else {
                credit(index, me, 1 + random.nextInt(100));
            }
        }
    }

    /** Sends with a fresh key until some node gives a definitive answer, then once more elsewhere. */
    private void idempotentSpend(Random random, Fixtures.Caller me) {
        String key = "chaos-" + UUID.randomUUID();
        String path = "/api/tokens/spend/" + (1 + random.nextInt(5));
        int definitive = 0;
        for (int attempt = 0; attempt < 20 && definitive < 2 && running; attempt++) {
            int index = random.nextInt(NODES);
            if (nodes.get(index) == null) {
                continue;
            }
            Exchange e = send("spend-idempotent", index, me, "POST", path, key);
            if (e.status() == 201 || e.status() == 402) {
                definitive++;
            }
        }
    }

    /** Reverts one acknowledged spending from two nodes at the same moment. */
    private void doubleRevert(Random random) {
        List<Exchange> spent = log.stream()
                .filter(e -> e.operation().startsWith("spend") && e.status() == 201)
                .limit(2000)
                .toList();
        if (spent.isEmpty()) {
            return;
        }
        Exchange target = spent.get(random.nextInt(spent.size()));
        String id = target.reply().json().path("spendingId").asText();
        Fixtures.Caller owner = callers.stream()
                .filter(c -> c.accountId().equals(target.accountId()))
                .findFirst()
                .orElseThrow();
        int first = random.nextInt(NODES);
        int second = (first + 1) % NODES;
        CompletableFuture<?> a = CompletableFuture.runAsync(
                () -> send("revert", first, owner, "POST", "/api/tokens/spendings/" + id + "/revert", null));
        send("revert", second, owner, "POST", "/api/tokens/spendings/" + id + "/revert", null);
        a.join();
    }

    /**
     * Holds a few tokens for 1 to 3 s, then settles or releases the hold from two nodes at the same
     * moment, or leaves it to expire (which some node's sweep must end exactly once).
     */
    private void reservation(Random random, Fixtures.Caller me) {
        Exchange held = send(
                "reserve",
                random.nextInt(NODES),
                me,
                "POST",
                "/api/tokens/reservations",
                Map.of("amount", 1 + random.nextInt(10), "expiresInSeconds", 1 + random.nextInt(3)),
                null);
        int ending = random.nextInt(3);
        if (held.status() != 201 || ending == 0) {
            return;
        }
        String path = "/api/tokens/reservations/"
                + held.reply().json().path("reservationId").asText() + (ending == 1 ? "/settle" : "/release");
        String operation = ending == 1 ? "settle" : "release";
        int first = random.nextInt(NODES);
        CompletableFuture<?> a = CompletableFuture.runAsync(() -> send(operation, first, me, "POST", path, null));
        send(operation, (first + 1) % NODES, me, "POST", path, null);
        a.join();
    }

    private void credit(int index, Fixtures.Caller me, long amount) {
        JarNode node = nodes.get(index);
        if (node == null) {
            return;
        }
        long start = System.nanoTime();
        Reply reply = null;
        try {
            reply = new Api(node.baseUrl(), TestNode.ADMIN_KEY)
                    .post(
                            "/admin/accounts/" + me.accountId() + "/credits",
                            Map.of("amount", amount, "reason", "chaos"));
        } catch (UncheckedIOException e) {
            // no answer: recorded as such
        }
        log.add(new Exchange("credit", index, start, System.nanoTime(), me.accountId(), reply, null));
    }

    private Exchange send(String operation, int index, Fixtures.Caller me, String method, String path, String key) {
        return send(operation, index, me, method, path, null, key);
    }

    private Exchange send(
            String operation, int index, Fixtures.Caller me, String method, String path, Object body, String key) {
        JarNode node = nodes.get(index);
        long start = System.nanoTime();
        Reply reply = null;
        if (node != null) {
            try {
                reply = new Api(node.baseUrl(), me.key())
                        .send(method, path, body, key == null ? Map.of() : Map.of("Idempotency-Key", key));
            } catch (UncheckedIOException e) {
                // no answer: recorded as such
            }
        }
        Exchange exchange = new Exchange(operation, index, start, System.nanoTime(), me.accountId(), reply, key);
        log.add(exchange);
        return exchange;
    }

    private void report(Duration blocked) {
        Map<String, Long> counts = log.stream()
                .collect(Collectors.groupingBy(
                        e -> e.operation() + " " + e.status(), TreeMap::new, Collectors.counting()));
        System.out.println("Chaos run: " + log.size() + " requests " + counts);
        recoveries.forEach(System.out::println);
        System.out.printf(
                "While a node was paused holding a row lock, another node's spend on that account succeeded after"
                        + " %d ms%n",
                blocked.toMillis());
    }

    private void check(String url, Duration blocked) throws SQLException {
        List<String> faults = new ArrayList<>();
        for (Exchange e : log) {
            if (e.status() >= 500
                    && (e.status() != 503 || e.reply().header("Retry-After").isEmpty())) {
                faults.add(e.operation() + " on node " + e.node() + " -> " + e.reply());
            }
        }
        if (!faults.isEmpty()) {
            started.forEach(node -> System.out.println("Errors logged by a node:\n" + errorsLogged(node.output())));
        }
        assertThat(faults).as("5xx other than 503 with Retry-After").isEmpty();
        assertThat(slowRecoveries)
                .as("nodes that took longer than %s to serve again", SERVES_AGAIN_WITHIN)
                .isEmpty();
        assertThat(blocked)
                .as("how long a paused node holding a row lock kept others from spending on that account")
                .isLessThanOrEqualTo(BLAST_RADIUS);
        assertThat(differentReplies(e -> e.operation().equals("spend-idempotent"), Exchange::key, JsonNode::toString))
                .as("Idempotency-Keys whose definitive answers differ from the first")
                .isEmpty();
        assertThat(differentReplies(
                        e -> e.operation().equals("revert"),
                        ChaosIT::revertedSpending,
                        b -> b.path("revertedAt").asText()))
                .as("spendings whose reverts answered different revertedAt")
                .isEmpty();
        assertThat(differentReplies(
                        e -> e.operation().equals("settle") || e.operation().equals("release"),
                        e -> e.reply().json().path("reservationId").asText(),
                        b -> b.path("status").asText() + " "
                                + b.path("settledAmount").asText() + " "
                                + b.path("spendingId").asText()))
                .as("reservations whose settles or releases answered differently")
                .isEmpty();
        assertThat(acknowledgedSpendingsNotDebitedOnce(url))
                .as("acknowledged spendings")
                .isEmpty();
        assertThat(refundedMoreThanOnce(url))
                .as("spendings refunded more than once")
                .isEmpty();
        assertThat(LedgerAudit.mismatches(url)).as("verify").isEmpty();
    }

    private JarNode started(JarNode node) {
        started.add(node);
        return node;
    }

    /** The node's log from its first ERROR line on, at most 80 lines: the stack trace a 500 left. */
    private static String errorsLogged(String output) {
        List<String> lines = output.lines().toList();
        int first = 0;
        while (first < lines.size() && !lines.get(first).contains(" ERROR ")) {
            first++;
        }
        return String.join("\n", lines.subList(first, Math.min(lines.size(), first + 80)));
    }

    private static String revertedSpending(Exchange e) {
        return e.reply() == null ? "" : e.reply().json().path("spendingId").asText();
    }

    /** Groups the definitive answers (2xx and 4xx but 409) by {@code group}; lists each group whose answers differ. */
    private List<String> differentReplies(
            Predicate<Exchange> which, Function<Exchange, String> group, Function<JsonNode, String> fingerprint) {
        Map<String, List<JsonNode>> answers = new LinkedHashMap<>();
        for (Exchange e : log) {
            if (which.test(e) && e.status() >= 200 && e.status() < 500 && e.status() != 409) {
                answers.computeIfAbsent(group.apply(e), k -> new ArrayList<>())
                        .add(e.reply().json());
            }
        }
        List<String> different = new ArrayList<>();
        answers.forEach((key, bodies) -> {
            if (bodies.stream().map(fingerprint).distinct().count() > 1) {
                different.add(key + ": " + bodies);
            }
        });
        return different;
    }

    /** Every spending a 201 named: it exists with its account and amount, and has exactly one spend entry. */
    private List<String> acknowledgedSpendingsNotDebitedOnce(String url) throws SQLException {
        Map<String, Exchange> acknowledged = new LinkedHashMap<>();
        for (Exchange e : log) {
            if (e.operation().startsWith("spend") && e.status() == 201) {
                acknowledged.putIfAbsent(e.reply().json().path("spendingId").asText(), e);
            }
        }
        List<String> wrong = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT s.account_id, s.amount,"
                        + " (SELECT count(*) FROM ledger_entries e WHERE e.spending_id = s.id AND e.kind = 'spend')"
                        + " FROM spendings s WHERE s.id = ?")) {
            for (Map.Entry<String, Exchange> entry : acknowledged.entrySet()) {
                ps.setString(1, entry.getKey());
                try (ResultSet rs = ps.executeQuery()) {
                    JsonNode body = entry.getValue().reply().json();
                    boolean ok = rs.next()
                            && rs.getString(1).equals(entry.getValue().accountId())
                            && rs.getLong(2) == body.path("amount").asLong()
                            && rs.getLong(3) == 1;
                    if (!ok) {
                        wrong.add(entry.getKey() + " " + body);
                    }
                }
            }
        }
        System.out.println("Acknowledged spendings checked in the database: " + acknowledged.size());
        return wrong;
    }

    private static List<String> refundedMoreThanOnce(String url) throws SQLException {
        List<String> twice = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection(url);
                PreparedStatement ps = connection.prepareStatement("SELECT spending_id FROM ledger_entries"
                        + " WHERE kind = 'revert' GROUP BY spending_id HAVING count(*) > 1");
                ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                twice.add(rs.getString(1));
            }
        }
        return twice;
    }
}
