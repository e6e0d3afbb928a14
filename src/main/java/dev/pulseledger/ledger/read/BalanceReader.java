package dev.pulseledger.ledger.read;

import dev.pulseledger.accounts.AccountStore;
import dev.pulseledger.accounts.Period;
import dev.pulseledger.accounts.PoolAllowance;
import dev.pulseledger.accounts.Pools;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.DatabaseUnavailableException;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.MicroBatcher;
import dev.pulseledger.store.MicroBatcher.Job;
import dev.pulseledger.store.NamedSql;
import dev.pulseledger.store.PgArrays;
import dev.pulseledger.store.Rows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Exact balance reads, with the breakdown by grant and the JSON body that shows it. On PostgreSQL
 * concurrent reads are gathered like spends: one thread drains the waiting reads and answers them all
 * with one query, instead of a round trip per request. Each read still sees every commit that finished
 * before it was asked, because the query starts after the read was queued. SQLite answers in-process,
 * and there this node is the only writer (docs/OPERATIONS.md): a read is kept and served again until
 * any write transaction of this process ends ({@link Database#writesEnded()}), which happens before a
 * write's caller hears of it, so a kept read is what a query would return now.
 */
public final class BalanceReader implements AutoCloseable {
    private static final String COLUMNS = "SELECT a.id, a.balance, a.period_start, a.period_end, a.period_granted,"
            + " a.due_at, a.pools, p.pools AS plan_pools, a.pending_plan_id, a.pending_at,"
            + " g.kind, g.remaining, g.expires_at, g.pool,"
            + " (SELECT COALESCE(SUM(r.amount), 0) FROM reservations r WHERE r.account_id = a.id"
            + " AND r.status = 'held' AND r.pool = 'default') AS held"
            + " FROM accounts a JOIN plans p ON p.id = a.plan_id";
    /** What the named pools of an account that has some hold (CONTRACT §14). */
    private static final NamedSql HELD_BY_POOL = NamedSql.parse("SELECT pool, SUM(amount) AS held FROM reservations"
            + " WHERE account_id = :account_id AND status = 'held' AND pool <> 'default' GROUP BY pool");
    /** The account with its live grants, through their index on {@code grants.live}. */
    private static final String WITH_LIVE_GRANTS = COLUMNS + " LEFT JOIN grants g ON g.account_id = a.id AND g.live";

    private static final NamedSql SELECT_ONE = NamedSql.parse(WITH_LIVE_GRANTS + " WHERE a.id = :id");
    /**
     * PostgreSQL only, for a batch of more than one account. PostgreSQL plans a statement with an array
     * afresh each time (the plan for the array's real length looks cheaper than a kept one), so a batch
     * of one account, the usual batch of a busy caller, takes {@link #SELECT_ONE}, whose plan is kept.
     */
    private static final NamedSql SELECT_MANY = NamedSql.parse(WITH_LIVE_GRANTS + " WHERE a.id = ANY (:ids)");

    private static final int MAX_QUEUE_LENGTH = 10_000;
    private static final int MAX_BATCH_SIZE = 256;
    /** SQLite: at most this many accounts' reads are kept between two writes. */
    private static final int MAX_KEPT = 10_000;

    /** An account's balance view and the body of {@code GET /api/tokens/balance} that shows it. */
    @SuppressWarnings("ArrayRecordComponent") // the body is sent as is, never compared or changed
    public record Balance(BalanceView view, byte[] json) {}

    /** SQLite: the reads made since {@code writesEnded} was the count of writes ended, by account. */
    private record Kept(long writesEnded, Map<String, Balance> balances) {}

    private final Database database;
    private final Function<BalanceView, byte[]> body;
    private final Optional<MicroBatcher<String, Optional<Balance>>> batcher;
    private volatile Kept kept = new Kept(-1, Map.of());

    /** {@code body} renders a view as the body of {@code GET /api/tokens/balance} (the web layer's JSON), kept with it. */
    public BalanceReader(Database database, Duration maxWait, Function<BalanceView, byte[]> body) {
        this.database = database;
        this.body = body;
        this.batcher = database.dialect() == Dialect.POSTGRESQL
                ? Optional.of(new MicroBatcher<>(
                        "balance-reader",
                        new MicroBatcher.Limits(MAX_QUEUE_LENGTH, MAX_BATCH_SIZE, maxWait),
                        this::readBatch,
                        () -> new DatabaseUnavailableException("A balance read did not finish in time", null)))
                : Optional.empty();
    }

    /** The account's balance as committed now, or empty when there is no such account. */
    public Optional<BalanceView> balance(String accountId) {
        return read(accountId).map(Balance::view);
    }

    /** As {@link #balance(String)}, with the JSON body. */
    public Optional<Balance> read(String accountId) {
        if (batcher.isPresent()) {
            return batcher.get().submit(accountId);
        }
        long writesEnded = Database.writesEnded();
        Kept current = kept;
        if (current.writesEnded() == writesEnded) {
            Balance balance = current.balances().get(accountId);
            if (balance != null) {
                return Optional.of(balance);
            }
        } else {
            // Racing threads may each start one; the last wins, and what the others keep is merely lost.
            current = new Kept(writesEnded, new ConcurrentHashMap<>());
            kept = current;
        }
        Optional<Balance> read = database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE.sql())) {
                SELECT_ONE.setString(ps, "id", accountId);
                return Optional.ofNullable(views(connection, ps).get(accountId)).map(this::withBody);
            }
        });
        // Kept under the count taken before the query began: a write that ended since has moved it on.
        if (read.isPresent() && current.balances().size() < MAX_KEPT) {
            current.balances().put(accountId, read.get());
        }
        return read;
    }

    private void readBatch(List<Job<String, Optional<Balance>>> batch) {
        List<String> ids = batch.stream().map(Job::item).distinct().toList();
        boolean one = ids.size() == 1;
        Map<String, BalanceView> views = database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement((one ? SELECT_ONE : SELECT_MANY).sql())) {
                if (one) {
                    SELECT_ONE.setString(ps, "id", ids.getFirst());
                } else {
                    SELECT_MANY.setArray(ps, "ids", PgArrays.texts(connection, ids.stream()));
                }
                return views(connection, ps);
            }
        });
        Map<String, Balance> balances = new HashMap<>();
        views.forEach((id, view) -> balances.put(id, withBody(view)));
        batch.forEach(job -> job.complete(Optional.ofNullable(balances.get(job.item()))));
    }

    private Balance withBody(BalanceView view) {
        return new Balance(view, body.apply(view));
    }

    /** One row per live grant of each account, or one without a grant. */
    private static Map<String, BalanceView> views(Connection connection, PreparedStatement ps) throws SQLException {
        Map<String, BalanceView> views = new HashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                String id = rs.getString("id");
                BalanceView view = views.get(id);
                if (view == null) {
                    view = namedPools(account(rs), rs);
                }
                String kind = rs.getString("kind");
                if (kind != null) {
                    String pool = rs.getString("pool");
                    BalanceView account = view;
                    BalanceView ofPool = view.ofPool(pool).orElseGet(() -> account.emptyPool(0));
                    ofPool = ofPool.with(
                            "allowance".equals(kind),
                            rs.getLong("remaining"),
                            Rows.optionalInstant(rs, "expires_at"),
                            !pool.equals(Pools.DEFAULT));
                    view = pool.equals(Pools.DEFAULT) ? ofPool : view.withPool(pool, ofPool);
                }
                views.put(id, view);
            }
        }
        for (Map.Entry<String, BalanceView> entry : views.entrySet()) {
            if (!entry.getValue().pools().isEmpty()) {
                entry.setValue(withHeldByPool(connection, entry.getKey(), entry.getValue()));
            }
        }
        return views;
    }

    /** The account's view before its grants: the default pool's row, and each named pool empty. */
    private static BalanceView namedPools(BalanceView account, ResultSet rs) throws SQLException {
        BalanceView view = account;
        Map<String, PoolAllowance> planPools = Pools.decodePlanPools(rs.getString("plan_pools"));
        for (String pool : Pools.decodeNames(rs.getString("pools"))) {
            view = view.withPool(pool, account.emptyPool(0));
        }
        for (Map.Entry<String, PoolAllowance> pool : planPools.entrySet()) {
            view = view.withPool(
                    pool.getKey(), account.emptyPool(pool.getValue().allowance()));
        }
        return view;
    }

    private static BalanceView withHeldByPool(Connection connection, String accountId, BalanceView view)
            throws SQLException {
        BalanceView result = view;
        try (PreparedStatement ps = connection.prepareStatement(HELD_BY_POOL.sql())) {
            HELD_BY_POOL.setString(ps, "account_id", accountId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String pool = rs.getString("pool");
                    Optional<BalanceView> named = result.ofPool(pool);
                    if (named.isPresent()) {
                        result = result.withPool(pool, named.get().withHeld(rs.getLong("held")));
                    }
                }
            }
        }
        return result;
    }

    /** The default pool's view from the account's row. */
    private static BalanceView account(ResultSet rs) throws SQLException {
        Optional<Instant> start = Rows.optionalInstant(rs, "period_start");
        Optional<Instant> end = Rows.optionalInstant(rs, "period_end");
        return new BalanceView(
                rs.getLong("balance"),
                start.isPresent() && end.isPresent()
                        ? Optional.of(new Period(start.get(), end.get()))
                        : Optional.empty(),
                rs.getLong("period_granted"),
                0,
                0,
                rs.getLong("held"),
                Optional.empty(),
                Rows.instant(rs, "due_at"),
                Map.of(),
                AccountStore.pendingChange(rs));
    }

    /** Stops the reader once the reads already queued are answered. */
    @Override
    public void close() {
        batcher.ifPresent(MicroBatcher::close);
    }
}
