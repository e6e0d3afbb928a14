package dev.pulseledger.tokens;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Dialect;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Exact balance reads. On PostgreSQL concurrent reads are gathered like spends: one thread drains
 * the waiting reads and answers them all with one query, instead of a round trip per request. Each
 * read still sees every commit that finished before it was asked, because the query starts after
 * the read was queued. SQLite answers in-process, so there each read queries directly.
 */
public final class BalanceReader implements AutoCloseable {
    private static final String SELECT_MANY = "SELECT id, balance FROM accounts WHERE id = ANY (?)";
    private static final int MAX_QUEUE_LENGTH = 10_000;
    private static final int MAX_BATCH_SIZE = 256;

    private final Database database;
    private final AccountStore accounts;
    private final Duration maxWait;
    private final BlockingQueue<Pending> queue = new ArrayBlockingQueue<>(MAX_QUEUE_LENGTH);
    private final Optional<Thread> reader;
    private volatile boolean running = true;

    public BalanceReader(Database database, AccountStore accounts, Duration maxWait) {
        this.database = database;
        this.accounts = accounts;
        this.maxWait = maxWait;
        this.reader = database.dialect() == Dialect.POSTGRESQL
                ? Optional.of(
                        Thread.ofPlatform().name("balance-reader").daemon(true).start(this::drain))
                : Optional.empty();
    }

    /** The account's balance as committed now, or empty when there is no such account. */
    public Optional<Long> balance(String accountId) {
        if (reader.isEmpty()) {
            return accounts.balance(accountId);
        }
        Pending pending = new Pending(accountId, new CompletableFuture<>());
        if (!running || !queue.offer(pending)) {
            throw new OverloadedException();
        }
        try {
            return pending.balance().get(maxWait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseUnavailableException("Interrupted while reading a balance", e);
        } catch (TimeoutException e) {
            throw new DatabaseUnavailableException("A balance read did not finish in time", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    private void drain() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH_SIZE);
        while (running) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH_SIZE - 1);
                Map<String, Long> balances = read(batch);
                batch.forEach(p -> p.balance().complete(Optional.ofNullable(balances.get(p.accountId()))));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                batch.forEach(p -> p.balance().completeExceptionally(e));
            } finally {
                batch.clear();
            }
        }
    }

    private Map<String, Long> read(List<Pending> batch) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_MANY)) {
                ps.setArray(
                        1,
                        connection.createArrayOf(
                                "text",
                                batch.stream()
                                        .map(Pending::accountId)
                                        .distinct()
                                        .toArray()));
                Map<String, Long> balances = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        balances.put(rs.getString(1), rs.getLong(2));
                    }
                }
                return balances;
            }
        });
    }

    /** Stops the reader; reads still queued are answered as unavailable. */
    @Override
    public void close() {
        running = false;
        reader.ifPresent(thread -> {
            try {
                thread.join(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        left.forEach(
                p -> p.balance().completeExceptionally(new DatabaseUnavailableException("The node is stopping", null)));
    }

    private record Pending(String accountId, CompletableFuture<Optional<Long>> balance) {}
}
