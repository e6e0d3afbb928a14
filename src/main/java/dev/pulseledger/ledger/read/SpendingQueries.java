package dev.pulseledger.ledger.read;

import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.db.SpendingRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import dev.pulseledger.store.Sql;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** SQL that reads spendings back for their owner. */
public final class SpendingQueries {
    private static final String COLUMNS = SpendingRows.COLUMNS;
    private static final String SELECT_ONE =
            "SELECT " + COLUMNS + " FROM spendings WHERE id = :id AND account_id = :account_id";
    /** A page of an account's spendings by keyset (public: the bench checks its plan at scale). */
    public static final String SELECT_PAGE = "SELECT " + COLUMNS
            + " FROM spendings WHERE account_id = :account_id AND seq < :before_seq ORDER BY seq DESC LIMIT :limit";

    private final Database database;

    public SpendingQueries(Database database) {
        this.database = database;
    }

    /** The spending, if it exists and belongs to the account. */
    public Optional<Spending> find(String accountId, String spendingId) {
        return database.read(connection -> {
            try (Handle sql = Sql.on(connection)) {
                return sql.createQuery(SELECT_ONE)
                        .bind("id", spendingId)
                        .bind("account_id", accountId)
                        .map((rs, ctx) -> SpendingRows.spending(rs))
                        .findOne();
            }
        });
    }

    /** The account's spendings newest first, starting before sequence {@code beforeSeq}. */
    public Page<Spending> list(String accountId, long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            try (Handle sql = Sql.on(connection)) {
                List<Sequenced> rows = sql.createQuery(SELECT_PAGE)
                        .bind("account_id", accountId)
                        .bind("before_seq", beforeSeq)
                        .bind("limit", limit + 1)
                        .map((rs, ctx) -> new Sequenced(rs.getLong("seq"), SpendingRows.spending(rs)))
                        .list();
                Page<Sequenced> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(page.items().stream().map(Sequenced::spending).toList(), page.nextPosition());
            }
        });
    }

    private record Sequenced(long seq, Spending spending) {}
}
