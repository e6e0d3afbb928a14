package dev.pulseledger.tokens;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.MicroBatcher;
import dev.pulseledger.store.MicroBatcher.Job;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    private final Optional<MicroBatcher<String, Optional<Long>>> batcher;

    public BalanceReader(Database database, AccountStore accounts, Duration maxWait) {
        this.database = database;
        this.accounts = accounts;
        this.batcher = database.dialect() == Dialect.POSTGRESQL
                ? Optional.of(new MicroBatcher<>(
                        "balance-reader",
                        new MicroBatcher.Limits(MAX_QUEUE_LENGTH, MAX_BATCH_SIZE, maxWait),
                        this::read,
                        () -> new DatabaseUnavailableException("A balance read did not finish in time", null)))
                : Optional.empty();
    }

    /** The account's balance as committed now, or empty when there is no such account. */
    public Optional<Long> balance(String accountId) {
        return batcher.isPresent() ? batcher.get().submit(accountId) : accounts.balance(accountId);
    }

    private void read(List<Job<String, Optional<Long>>> batch) {
        Map<String, Long> balances = database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_MANY)) {
                ps.setArray(
                        1,
                        connection.createArrayOf(
                                "text", batch.stream().map(Job::item).distinct().toArray()));
                Map<String, Long> found = new HashMap<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        found.put(rs.getString(1), rs.getLong(2));
                    }
                }
                return found;
            }
        });
        batch.forEach(job -> job.complete(Optional.ofNullable(balances.get(job.item()))));
    }

    /** Stops the reader once the reads already queued are answered. */
    @Override
    public void close() {
        batcher.ifPresent(MicroBatcher::close);
    }
}
