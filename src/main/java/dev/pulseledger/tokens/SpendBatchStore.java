package dev.pulseledger.tokens;

import dev.pulseledger.accounts.LedgerWriter;
import dev.pulseledger.events.NewEvent;
import dev.pulseledger.events.Outbox;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Dialect;
import dev.pulseledger.store.Rows;
import dev.pulseledger.tokens.LedgerCommand.Revert;
import dev.pulseledger.tokens.LedgerCommand.Spend;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Applies a batch of spends and reverts in one transaction: it locks each account row once, decides
 * every command in queue order against the locked balances, then writes with set-based batches.
 * Across nodes the row locks make concurrent batches on one account take turns.
 */
public final class SpendBatchStore {
    /** The balance and the effective low-balance threshold: the account's own, else its plan's. */
    private static final String LOCKED_COLUMNS = "SELECT id, balance, COALESCE(low_balance_threshold,"
            + " (SELECT p.low_balance_threshold FROM plans p WHERE p.id = accounts.plan_id)) FROM accounts";

    private static final String LOCK_ONE = LOCKED_COLUMNS + " WHERE id = ?";
    private static final String LOCK_MANY_POSTGRES = LOCKED_COLUMNS + " WHERE id = ANY (?) ORDER BY id FOR UPDATE";
    private static final String UPDATE_BALANCE = "UPDATE accounts SET balance = ? WHERE id = ?";
    private static final String INSERT_SPENDING =
            "INSERT INTO spendings (id, account_id, amount, status, created_at, reverted_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?)";
    private static final String MARK_REVERTED =
            "UPDATE spendings SET status = 'reverted', reverted_at = ? WHERE id = ? AND status = 'active'";
    private static final String SELECT_SPENDING =
            "SELECT id, account_id, amount, status, created_at, reverted_at FROM spendings"
                    + " WHERE id = ? AND account_id = ?";
    private static final String SELECT_SPEND_BALANCE =
            "SELECT balance_after FROM ledger_entries WHERE spending_id = ? AND kind = 'spend'";
    /**
     * PostgreSQL writes a batch's changes in one statement from arrays. WITH ORDINALITY keeps the
     * queue's order, so sequence numbers follow it as they do on SQLite.
     */
    private static final String WRITE_CHANGES_POSTGRES = """
            WITH batch AS (SELECT ?::bigint AS created_at),
            balances AS (
                UPDATE accounts a SET balance = c.balance
                FROM unnest(?::text[], ?::bigint[]) AS c (id, balance)
                WHERE a.id = c.id),
            new_spendings AS (
                INSERT INTO spendings (id, account_id, amount, status, created_at, reverted_at)
                SELECT s.id, s.account_id, s.amount, s.status, batch.created_at, s.reverted_at
                FROM batch, unnest(?::text[], ?::text[], ?::bigint[], ?::text[], ?::bigint[]) WITH ORDINALITY
                    AS s (id, account_id, amount, status, reverted_at, position)
                ORDER BY s.position)
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, created_at)
            SELECT l.account_id, l.kind, l.amount, l.balance_after, l.spending_id, batch.created_at
            FROM batch, unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[]) WITH ORDINALITY
                AS l (account_id, kind, amount, balance_after, spending_id, position)
            ORDER BY l.position""";

    private static final String SELECT_IDEMPOTENCY =
            "SELECT amount, outcome, spending_id, balance, created_at FROM idempotency_keys"
                    + " WHERE account_id = ? AND key = ?";
    private static final String INSERT_IDEMPOTENCY =
            "INSERT INTO idempotency_keys (account_id, key, amount, outcome, spending_id, balance,"
                    + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)";

    private final Database database;
    private final Clock clock;
    private final Outbox outbox;

    public SpendBatchStore(Database database, Clock clock, Outbox outbox) {
        this.database = database;
        this.clock = clock;
        this.outbox = outbox;
    }

    /**
     * Applies the commands in one transaction and returns one outcome per command, in order.
     *
     * @param retry true when an earlier attempt of these commands may have committed; spends then
     *     first look for their own spending and report it instead of spending again
     */
    public List<LedgerOutcome> apply(List<LedgerCommand> commands, boolean retry) {
        return database.inTransaction(connection -> new Batch(connection, retry).run(commands));
    }

    /** The state of one batch while it is decided and written. */
    private final class Batch {
        private final Connection connection;
        private final boolean retry;
        private final Instant now = clock.instant();
        private final Map<String, Long> balances = new LinkedHashMap<>();
        private final Map<String, Long> lowBalanceThresholds = new HashMap<>();
        private final Map<String, Long> changedBalances = new LinkedHashMap<>();
        private final Map<String, Spending> newSpendings = new LinkedHashMap<>();
        private final Map<String, Spending> revertedEarlierSpendings = new LinkedHashMap<>();
        private final Map<String, IdempotencyRecord> newIdempotencyRecords = new HashMap<>();
        private final List<LedgerLine> ledgerLines = new ArrayList<>();
        private final List<NewEvent> events = new ArrayList<>();

        Batch(Connection connection, boolean retry) {
            this.connection = connection;
            this.retry = retry;
        }

        List<LedgerOutcome> run(List<LedgerCommand> commands) throws SQLException {
            lockAccounts(commands);
            List<LedgerOutcome> outcomes = new ArrayList<>(commands.size());
            for (LedgerCommand command : commands) {
                outcomes.add(
                        switch (command) {
                            case Spend spend -> spend(spend);
                            case Revert revert -> revert(revert);
                        });
            }
            write();
            return outcomes;
        }

        private void lockAccounts(List<LedgerCommand> commands) throws SQLException {
            TreeSet<String> ids = new TreeSet<>();
            commands.forEach(command -> ids.add(command.accountId()));
            if (database.dialect() == Dialect.POSTGRESQL) {
                try (PreparedStatement ps = connection.prepareStatement(LOCK_MANY_POSTGRES)) {
                    Array array = connection.createArrayOf("text", ids.toArray());
                    ps.setArray(1, array);
                    readBalances(ps);
                }
            } else {
                try (PreparedStatement ps = connection.prepareStatement(LOCK_ONE)) {
                    for (String id : ids) {
                        ps.setString(1, id);
                        readBalances(ps);
                    }
                }
            }
        }

        private void readBalances(PreparedStatement ps) throws SQLException {
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    balances.put(rs.getString(1), rs.getLong(2));
                    long threshold = rs.getLong(3);
                    if (!rs.wasNull()) {
                        lowBalanceThresholds.put(rs.getString(1), threshold);
                    }
                }
            }
        }

        private long balance(String accountId) {
            Long balance = balances.get(accountId);
            if (balance == null) {
                throw new IllegalStateException("Account vanished while spending: " + accountId);
            }
            return balance;
        }

        private void setBalance(String accountId, long balance) {
            if (balance < 0) {
                throw new IllegalStateException("A balance would go negative: " + accountId);
            }
            balances.put(accountId, balance);
            changedBalances.put(accountId, balance);
        }

        private SpendResult spend(Spend command) throws SQLException {
            SpendRequest request = command.request();
            if (retry) {
                Optional<SpendResult> landed = alreadyLanded(command);
                if (landed.isPresent()) {
                    return landed.get();
                }
            }
            if (request.idempotencyKey().isPresent()) {
                Optional<IdempotencyRecord> earlier = idempotencyRecord(request);
                if (earlier.isPresent()) {
                    return earlier.get().replay(request);
                }
            }
            long balance = balance(request.accountId());
            SpendResult result;
            if (balance >= request.amount()) {
                long after = balance - request.amount();
                setBalance(request.accountId(), after);
                noteLowBalance(request.accountId(), balance, after, command.spendingId());
                Spending spending = new Spending(
                        command.spendingId(), request.accountId(), request.amount(), false, now, Optional.empty());
                newSpendings.put(spending.id(), spending);
                ledgerLines.add(
                        new LedgerLine(spending.accountId(), "spend", -spending.amount(), after, spending.id()));
                result = new SpendResult.Spent(spending, after, false);
            } else {
                result = new SpendResult.InsufficientBalance(balance, request.amount(), false);
            }
            request.idempotencyKey()
                    .ifPresent(key -> newIdempotencyRecords.put(
                            idempotencyScope(request.accountId(), key), IdempotencyRecord.of(request, result, now)));
            return result;
        }

        /** Raises balance.low when this spend takes the balance from >= threshold to below it. */
        private void noteLowBalance(String accountId, long before, long after, String spendingId) {
            Long threshold = lowBalanceThresholds.get(accountId);
            if (threshold != null && before >= threshold && after < threshold) {
                events.add(NewEvent.balanceLow(accountId, before, after, threshold, spendingId));
            }
        }

        private Optional<SpendResult> alreadyLanded(Spend command) throws SQLException {
            Optional<Spending> spending = findSpending(command.accountId(), command.spendingId());
            if (spending.isEmpty()) {
                return Optional.empty();
            }
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SPEND_BALANCE)) {
                ps.setString(1, command.spendingId());
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    Spending first = new Spending(
                            spending.get().id(),
                            spending.get().accountId(),
                            spending.get().amount(),
                            false,
                            spending.get().createdAt(),
                            Optional.empty());
                    return Optional.of(new SpendResult.Spent(first, rs.getLong(1), false));
                }
            }
        }

        private Optional<IdempotencyRecord> idempotencyRecord(SpendRequest request) throws SQLException {
            String key = request.idempotencyKey().orElseThrow();
            IdempotencyRecord inBatch = newIdempotencyRecords.get(idempotencyScope(request.accountId(), key));
            if (inBatch != null) {
                return Optional.of(inBatch);
            }
            try (PreparedStatement ps = connection.prepareStatement(SELECT_IDEMPOTENCY)) {
                ps.setString(1, request.accountId());
                ps.setString(2, key);
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new IdempotencyRecord(
                            request.accountId(),
                            key,
                            rs.getLong("amount"),
                            rs.getString("outcome"),
                            Optional.ofNullable(rs.getString("spending_id")),
                            rs.getLong("balance"),
                            Rows.instant(rs, "created_at")));
                }
            }
        }

        private RevertResult revert(Revert command) throws SQLException {
            // A spending this batch already touched is decided here; the database still has its old state.
            Spending spending =
                    newSpendings.getOrDefault(command.spendingId(), revertedEarlierSpendings.get(command.spendingId()));
            if (spending == null || !spending.accountId().equals(command.accountId())) {
                spending =
                        findSpending(command.accountId(), command.spendingId()).orElse(null);
            }
            if (spending == null) {
                return new RevertResult.NotFound();
            }
            if (spending.reverted()) {
                return new RevertResult.Reverted(spending, balance(command.accountId()));
            }
            Spending reverted = spending.revertedAt(now);
            long after = balance(command.accountId()) + spending.amount();
            setBalance(command.accountId(), after);
            if (newSpendings.containsKey(spending.id())) {
                newSpendings.put(spending.id(), reverted);
            } else {
                revertedEarlierSpendings.put(reverted.id(), reverted);
            }
            ledgerLines.add(new LedgerLine(spending.accountId(), "revert", spending.amount(), after, spending.id()));
            return new RevertResult.Reverted(reverted, after);
        }

        private Optional<Spending> findSpending(String accountId, String spendingId) throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_SPENDING)) {
                ps.setString(1, spendingId);
                ps.setString(2, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(SpendingQueries.spending(rs)) : Optional.empty();
                }
            }
        }

        private void write() throws SQLException {
            if (database.dialect() == Dialect.POSTGRESQL) {
                writeChangesAtOnce();
            } else {
                writeChangesInBatches();
            }
            try (PreparedStatement ps = connection.prepareStatement(MARK_REVERTED)) {
                for (Spending spending : revertedEarlierSpendings.values()) {
                    ps.setLong(1, spending.revertedAt().orElseThrow().toEpochMilli());
                    ps.setString(2, spending.id());
                    ps.addBatch();
                }
                if (!revertedEarlierSpendings.isEmpty()) {
                    requireEachChangedOneRow(ps.executeBatch(), "reverted a spending that was not active");
                }
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_IDEMPOTENCY)) {
                for (IdempotencyRecord record : newIdempotencyRecords.values()) {
                    ps.setString(1, record.accountId());
                    ps.setString(2, record.key());
                    ps.setLong(3, record.amount());
                    ps.setString(4, record.outcome());
                    ps.setString(5, record.spendingId().orElse(null));
                    ps.setLong(6, record.balance());
                    ps.setLong(7, record.createdAt().toEpochMilli());
                    ps.addBatch();
                }
                executeIfAny(ps, newIdempotencyRecords.size());
            }
            outbox.append(connection, events, now);
        }

        /** SQLite runs in this process, so a statement per row costs no round trip. */
        private void writeChangesInBatches() throws SQLException {
            try (PreparedStatement ps = connection.prepareStatement(UPDATE_BALANCE)) {
                for (Map.Entry<String, Long> change : changedBalances.entrySet()) {
                    ps.setLong(1, change.getValue());
                    ps.setString(2, change.getKey());
                    ps.addBatch();
                }
                executeIfAny(ps, changedBalances.size());
            }
            try (PreparedStatement ps = connection.prepareStatement(INSERT_SPENDING)) {
                for (Spending spending : newSpendings.values()) {
                    ps.setString(1, spending.id());
                    ps.setString(2, spending.accountId());
                    ps.setLong(3, spending.amount());
                    ps.setString(4, spending.reverted() ? "reverted" : "active");
                    ps.setLong(5, spending.createdAt().toEpochMilli());
                    Rows.setOptionalInstant(ps, 6, spending.revertedAt());
                    ps.addBatch();
                }
                executeIfAny(ps, newSpendings.size());
            }
            try (LedgerWriter ledger = new LedgerWriter(connection)) {
                for (LedgerLine line : ledgerLines) {
                    ledger.add(
                            line.accountId(),
                            line.kind(),
                            line.signedAmount(),
                            line.balanceAfter(),
                            Optional.of(line.spendingId()),
                            Optional.empty(),
                            now);
                }
                ledger.flush();
            }
        }

        /**
         * PostgreSQL: the new balances, spendings and ledger lines go as arrays in one statement, one
         * round trip whatever the batch size (a statement per table cost a round trip each).
         */
        private void writeChangesAtOnce() throws SQLException {
            if (ledgerLines.isEmpty()) {
                return; // every command was refused or replayed: nothing changed
            }
            List<Spending> spendings = List.copyOf(newSpendings.values());
            try (PreparedStatement ps = connection.prepareStatement(WRITE_CHANGES_POSTGRES)) {
                int i = 0;
                ps.setLong(++i, now.toEpochMilli());
                ps.setArray(++i, texts(changedBalances.keySet().stream()));
                ps.setArray(++i, longs(changedBalances.values().stream()));
                ps.setArray(++i, texts(spendings.stream().map(Spending::id)));
                ps.setArray(++i, texts(spendings.stream().map(Spending::accountId)));
                ps.setArray(++i, longs(spendings.stream().map(Spending::amount)));
                ps.setArray(++i, texts(spendings.stream().map(s -> s.reverted() ? "reverted" : "active")));
                ps.setArray(
                        ++i,
                        longs(spendings.stream()
                                .map(s -> s.revertedAt()
                                        .map(Instant::toEpochMilli)
                                        .orElse(null))));
                ps.setArray(++i, texts(ledgerLines.stream().map(LedgerLine::accountId)));
                ps.setArray(++i, texts(ledgerLines.stream().map(LedgerLine::kind)));
                ps.setArray(++i, longs(ledgerLines.stream().map(LedgerLine::signedAmount)));
                ps.setArray(++i, longs(ledgerLines.stream().map(LedgerLine::balanceAfter)));
                ps.setArray(++i, texts(ledgerLines.stream().map(LedgerLine::spendingId)));
                ps.executeUpdate();
            }
        }

        private Array texts(Stream<String> values) throws SQLException {
            return connection.createArrayOf("text", values.toArray());
        }

        private Array longs(Stream<Long> values) throws SQLException {
            return connection.createArrayOf("bigint", values.toArray());
        }

        /**
         * The account locks make every decision final, so a write that misses its row is a bug: fail
         * the batch rather than commit a refund whose spending did not change.
         */
        private static void requireEachChangedOneRow(int[] counts, String problem) {
            for (int count : counts) {
                if (count != 1 && count != Statement.SUCCESS_NO_INFO) {
                    throw new IllegalStateException("A spend batch " + problem);
                }
            }
        }

        private static void executeIfAny(PreparedStatement ps, int count) throws SQLException {
            if (count > 0) {
                ps.executeBatch();
            }
        }
    }

    private static String idempotencyScope(String accountId, String key) {
        return accountId + '\n' + key;
    }

    /** One balance change decided in a batch, written to the ledger with the batch. */
    private record LedgerLine(String accountId, String kind, long signedAmount, long balanceAfter, String spendingId) {}
}
