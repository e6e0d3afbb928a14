package dev.pulseledger.ledger;

import dev.pulseledger.events.Outbox;
import dev.pulseledger.ledger.LedgerState.AccountState;
import dev.pulseledger.store.Database;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.SortedSet;
import java.util.stream.Stream;

/**
 * The ledger on PostgreSQL: a round locks its accounts with one {@code SELECT … FOR UPDATE} and writes
 * its balances, spendings and ledger lines as arrays in one statement, so a batch costs the same few
 * round trips whatever its size.
 */
final class PostgresLedgerStore extends JdbcLedgerStore {
    private static final String LOCK_MANY = LOCKED_COLUMNS + " WHERE id = ANY (?) ORDER BY id FOR UPDATE";

    /** WITH ORDINALITY keeps the queue's order, so sequence numbers follow it as they do on SQLite. */
    private static final String WRITE_CHANGES = """
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
            INSERT INTO ledger_entries (account_id, kind, amount, balance_after, spending_id, reason, created_at)
            SELECT l.account_id, l.kind, l.amount, l.balance_after, l.spending_id, l.reason, batch.created_at
            FROM batch, unnest(?::text[], ?::text[], ?::bigint[], ?::bigint[], ?::text[], ?::text[]) WITH ORDINALITY
                AS l (account_id, kind, amount, balance_after, spending_id, reason, position)
            ORDER BY l.position""";

    PostgresLedgerStore(Database database, Outbox outbox) {
        super(database, outbox);
    }

    @Override
    Map<String, AccountState> lockAccounts(Connection connection, SortedSet<String> ids) throws SQLException {
        Map<String, AccountState> accounts = new HashMap<>();
        try (PreparedStatement ps = connection.prepareStatement(LOCK_MANY)) {
            ps.setArray(1, connection.createArrayOf("text", ids.toArray()));
            readAccounts(ps, accounts);
        }
        return accounts;
    }

    /** One round trip whatever the batch size (a statement per table cost a round trip each). */
    @Override
    void writeBalancesSpendingsAndLines(Connection connection, ChangeSet changes) throws SQLException {
        if (changes.lines().isEmpty()) {
            return; // every command was refused or replayed: nothing changed
        }
        try (PreparedStatement ps = connection.prepareStatement(WRITE_CHANGES)) {
            int i = 0;
            ps.setLong(++i, changes.at().toEpochMilli());
            ps.setArray(++i, texts(connection, changes.balances().keySet().stream()));
            ps.setArray(++i, longs(connection, changes.balances().values().stream()));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(Spending::id)));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(Spending::accountId)));
            ps.setArray(++i, longs(connection, changes.newSpendings().stream().map(Spending::amount)));
            ps.setArray(++i, texts(connection, changes.newSpendings().stream().map(JdbcLedgerStore::status)));
            ps.setArray(++i, longs(connection, changes.newSpendings().stream().map(s -> epochMillis(s.revertedAt()))));
            ps.setArray(++i, texts(connection, changes.lines().stream().map(LedgerLine::accountId)));
            ps.setArray(
                    ++i,
                    texts(connection, changes.lines().stream().map(l -> l.kind().wire())));
            ps.setArray(++i, longs(connection, changes.lines().stream().map(LedgerLine::amount)));
            ps.setArray(++i, longs(connection, changes.lines().stream().map(LedgerLine::balanceAfter)));
            ps.setArray(
                    ++i,
                    texts(
                            connection,
                            changes.lines().stream().map(l -> l.spendingId().orElse(null))));
            ps.setArray(
                    ++i,
                    texts(
                            connection,
                            changes.lines().stream().map(l -> l.reason().orElse(null))));
            ps.executeUpdate();
        }
    }

    private static Array texts(Connection connection, Stream<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray());
    }

    private static Array longs(Connection connection, Stream<Long> values) throws SQLException {
        return connection.createArrayOf("bigint", values.toArray());
    }
}
