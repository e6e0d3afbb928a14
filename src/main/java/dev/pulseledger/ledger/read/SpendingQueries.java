package dev.pulseledger.ledger.read;

import dev.pulseledger.ledger.core.Spending;
import dev.pulseledger.ledger.db.SpendingRows;
import dev.pulseledger.store.Database;
import dev.pulseledger.store.Page;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** SQL that reads spendings back for their owner. */
public final class SpendingQueries {
    private static final String COLUMNS = SpendingRows.COLUMNS;
    private static final String SELECT_ONE = "SELECT " + COLUMNS + " FROM spendings WHERE id = ? AND account_id = ?";
    /** A page of an account's spendings by keyset (public: the bench checks its plan at scale). */
    public static final String SELECT_PAGE =
            "SELECT " + COLUMNS + " FROM spendings WHERE account_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?";

    private final Database database;

    public SpendingQueries(Database database) {
        this.database = database;
    }

    /** The spending, if it exists and belongs to the account. */
    public Optional<Spending> find(String accountId, String spendingId) {
        return database.read(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_ONE)) {
                ps.setString(1, spendingId);
                ps.setString(2, accountId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(SpendingRows.spending(rs)) : Optional.empty();
                }
            }
        });
    }

    /** The account's spendings newest first, starting before sequence {@code beforeSeq}. */
    public Page<Spending> list(String accountId, long beforeSeq, int limit) {
        return database.readMayLag(connection -> {
            try (PreparedStatement ps = connection.prepareStatement(SELECT_PAGE)) {
                ps.setString(1, accountId);
                ps.setLong(2, beforeSeq);
                ps.setInt(3, limit + 1);
                List<Sequenced> rows = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        rows.add(new Sequenced(rs.getLong("seq"), SpendingRows.spending(rs)));
                    }
                }
                Page<Sequenced> page = Page.of(rows, limit, row -> Long.toString(row.seq()));
                return new Page<>(page.items().stream().map(Sequenced::spending).toList(), page.nextPosition());
            }
        });
    }

    private record Sequenced(long seq, Spending spending) {}
}
